import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The one reading of an HTML form's body, for the hosted pages and the console alike: urlencoded
 * bodies here, multipart ones (the apply page's CV) by apply/read-form.ts into the same shape.
 * Repeated fields are kept (`all`); `get` answers a field's last value, '' when it is absent.
 */
export interface Form {
  get(name: string): string;
  all(name: string): string[];
  has(name: string): boolean;
}

/** The byte limits of urlencoded bodies, by the forms a scope serves; the multipart limits below. */
export const FORM_LIMITS = {
  /** The console's forms (a job's description is the longest field). */
  console: 262_144,
  /** The apply form posted without its file (the script sent the file to its upload slot). */
  apply: 512_000,
  /** A form of buttons only (the claim page): nothing in its body is read. */
  buttons: 1024,
  /**
   * The apply form with its file: @fastify/multipart's limits (the file's is the CV limit). Room
   * for the job's questions (at most 30, a file answer each at most, a multi-select's values).
   */
  multipart: { files: 31, fields: 400, fieldSize: 40_000, parts: 450 },
} as const;

export function formFrom(params: URLSearchParams): Form {
  return {
    get: (name) => params.getAll(name).at(-1) ?? '',
    all: (name) => params.getAll(name),
    has: (name) => params.has(name),
  };
}

/**
 * Registers the urlencoded parser in a scope: the body becomes URLSearchParams (read by `formOf`);
 * a body over `bodyLimit` bytes is refused with 413 (payload_too_large) before it is parsed.
 */
export function acceptForms(scope: Pick<FastifyInstance, 'addContentTypeParser'>, bodyLimit: number): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => done(null, new URLSearchParams(String(body))),
  );
}

/** The urlencoded form a request posted; an empty form for any other body. */
export function formOf(request: FastifyRequest): Form {
  return formFrom(request.body instanceof URLSearchParams ? request.body : new URLSearchParams());
}
