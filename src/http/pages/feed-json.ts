import { Type } from 'typebox';
import type { AuthoredJob } from '../../contract/job.ts';
import { Text } from '../../contract/text.ts';
import { badRequest } from '../../domain/errors.ts';
import type { Route } from '../types.ts';
import { FeedFilterQuery, readFeedFilter } from './feed-filter.ts';

const PAGE_SIZE = 50;

/** What each role of the JSON feed shows, in this order; the job page carries the rest. */
const FEED_FIELDS = [
  'id',
  'title',
  'category',
  'company',
  'location',
  'employmentType',
  'contractType',
  'salary',
  'postedAt',
  'expiresAt',
  'url',
  'applyLink',
] as const satisfies readonly (keyof AuthoredJob)[];

const Query = Type.Object(
  {
    cursor: Type.Optional(Text({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    ...FeedFilterQuery,
  },
  { additionalProperties: false },
);

/** The job seeker feed as JSON: live roles, newest first, with the HTML page's filters. */
export const jobFeedJson: Route = (app, { services: { publicJobs } }) => {
  app.get('/feed/jobs.json', { schema: { hide: true, querystring: Query } }, async (request, reply) => {
    const { cursor, limit, ...filters } = request.query;
    const page = await publicJobs.feed(cursor ?? null, limit ?? PAGE_SIZE, readFeedFilter(filters));
    if (page === null) throw badRequest('cursor is not a cursor this feed handed out.', { field: 'cursor' });
    reply.header('cache-control', 'public, max-age=60');
    return {
      jobs: page.jobs.map((job) => Object.fromEntries(FEED_FIELDS.map((field) => [field, job[field]]))),
      nextCursor: page.nextCursor,
    };
  });
};
