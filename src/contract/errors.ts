import { type TSchema, Type } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';

export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'Stable, machine-readable error code.' }),
        message: Type.String({ description: 'What went wrong, for a developer.' }),
        requestId: Type.String({ description: 'Quote it to support; also sent as the x-request-id header.' }),
      },
      {
        additionalProperties: true,
        description: 'Code-specific extra fields sit beside code, message and requestId.',
      },
    ),
  },
  { $id: 'Error', title: 'Error' },
);

/** Errors any authenticated /v1 route can answer; attached to every route by `documentedErrors`. */
const SHARED_V1: ErrorCode[] = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'payload_too_large',
  'unsupported_media_type',
  'internal',
];

const EXTRA_FIELDS: Partial<Record<ErrorCode, string>> = {
  overage_cap_reached: 'priceCents, currency, capCents, spendCents',
  job_not_open: 'status',
  managed_ad_locked: 'fields (string[])',
  not_publishable: 'missing (string[])',
  cv_rejected: 'reason, detail, fix',
};

/**
 * The response entries for a route's errors, grouped by HTTP status, each naming its codes.
 * `rateLimited` adds the 429 `rate_limited` every limited route can answer.
 */
export function documentedErrors(
  codes: ErrorCode[],
  options: { rateLimited?: boolean; shared?: boolean } = {},
) {
  const all = new Set<ErrorCode>(codes);
  if (options.shared !== false) for (const code of SHARED_V1) all.add(code);
  if (options.rateLimited) all.add('rate_limited');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const described = list.map((code) =>
      EXTRA_FIELDS[code] ? `\`${code}\` (extra: ${EXTRA_FIELDS[code]})` : `\`${code}\``,
    );
    responses[status] = Type.Ref('Error', { description: `Error: ${described.join(', ')}.` });
  }
  return responses;
}
