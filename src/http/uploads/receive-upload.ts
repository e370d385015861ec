import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import {
  type LocalBlobStore,
  type UploadQuery,
  type UploadRefusal,
  UploadRefusedError,
} from '../../blob-store/index.ts';
import { type AppError, badRequest, conflict, forbidden, unsupportedMediaType } from '../../domain/errors.ts';
import type { Route } from '../types.ts';

/** What the route needs of the store (tests may wrap it). */
export type UploadReceiver = Pick<LocalBlobStore, 'receive'>;

const ANSWER_FOR: Record<UploadRefusal, (message: string) => AppError> = {
  malformed: badRequest,
  url_refused: forbidden,
  wrong_type: unsupportedMediaType,
  already_received: conflict,
};

/** The store's refusal as the answer the client gets; anything else is the service's failure. */
function asAnswer(error: unknown): unknown {
  return error instanceof UploadRefusedError ? ANSWER_FOR[error.kind](error.message) : error;
}

/**
 * `PUT /uploads/:key`: the target of the local store's presigned URLs. No API key: the URL's
 * signature is the authority, as with S3. `onReceived` runs after the file is stored (e.g. to mark
 * the upload sent); if it fails the file stays and the client gets the error.
 */
export function registerLocalUploadRoute(
  app: FastifyInstance,
  store: UploadReceiver,
  onReceived?: (key: string) => Promise<void>,
): void {
  app.register(async (scope) => {
    // In this scope only: every body reaches the handler as the raw stream. A parser that takes
    // the payload stream (no parseAs) is never buffered, so bodyLimit does not apply, and the
    // store itself refuses a wrong Content-Type with a message about uploads, not about JSON.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    // Not in the public API document: integrators only ever follow the presigned uploadUrl.
    scope.put<{ Params: { key: string } }>(
      '/uploads/:key',
      { schema: { hide: true } },
      async (request, reply) => {
        const body = (request.body as Readable | undefined) ?? request.raw;
        let stored: boolean;
        try {
          ({ stored } = await store.receive(
            request.params.key,
            request.query as UploadQuery,
            request.headers,
            body,
          ));
        } catch (error) {
          // The body may still be arriving; closing spares reading a file that is refused anyway.
          reply.header('connection', 'close');
          throw asAnswer(error);
        }
        if (onReceived) await onReceived(request.params.key);
        // Over CV_MAX_BYTES the body was read and dropped: 200 as S3 answers, `stored: false`; the
        // application naming the upload answers 422 cv_rejected too_large.
        return reply.code(200).send({ stored });
      },
    );
  });
}

/** The local store's upload route, marking each upload sent; with S3 the URLs point at S3 instead. */
export const localUploads: Route = (app, { files, services }) => {
  if (files.kind === 'local')
    registerLocalUploadRoute(app, files, (key) => services.uploads.markReceived(key));
};
