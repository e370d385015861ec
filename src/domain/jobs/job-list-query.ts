import { decodeCursor } from '../../lib/cursor.ts';
import { parseInstant } from '../../lib/time.ts';
import { badRequest } from '../errors.ts';
import type { PublicStatus } from './job-repository.ts';

const PUBLIC: readonly PublicStatus[] = ['published', 'closed', 'expired'];

export interface JobListQuery {
  status?: string;
  updatedSince?: string;
  limit?: number;
  cursor?: string;
}

/** GET /v1/jobs's query read: a subset of the public statuses, an instant, a cursor (400 naming the field). */
export function readListQuery(query: JobListQuery): {
  statuses: Set<PublicStatus>;
  updatedSince: Date | null;
  afterId: string | null;
} {
  const statuses = new Set<PublicStatus>();
  for (const part of query.status?.split(',') ?? PUBLIC) {
    const s = part.trim();
    if (!(PUBLIC as readonly string[]).includes(s)) {
      throw badRequest(
        `status must be a comma-separated subset of ${PUBLIC.join(', ')}; "${s}" is not one.`,
        {
          field: 'status',
        },
      );
    }
    statuses.add(s as PublicStatus);
  }
  const updatedSince = query.updatedSince === undefined ? null : parseInstant(query.updatedSince);
  if (query.updatedSince !== undefined && updatedSince === null) {
    throw badRequest('updatedSince must be an ISO 8601 timestamp or epoch milliseconds.', {
      field: 'updatedSince',
    });
  }
  const afterId = query.cursor === undefined ? null : decodeCursor(query.cursor);
  if (query.cursor !== undefined && afterId === null)
    throw badRequest('cursor is not a cursor this API handed out.', { field: 'cursor' });
  return { statuses, updatedSince, afterId };
}
