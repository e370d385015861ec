import { EVENT_TYPE_NAMES, EventsPage, EventsQuery, scopeOfEventType } from '../../../contract/events.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

/**
 * The scopes that open some event type. A key holding none of them (only `jobs:write`) has no feed
 * to read: 403, as on any route whose scope a key lacks, not an always-empty 200.
 */
const FEED_SCOPES = [...new Set(EVENT_TYPE_NAMES.map(scopeOfEventType))];

export const listEvents: Route = (app, { services: { events } }) => {
  app.get(
    '/v1/events',
    {
      config: { anyScope: FEED_SCOPES },
      schema: {
        querystring: EventsQuery,
        ...v1Docs({
          operationId: 'listEvents',
          summary: 'The change feed: events oldest first, from a cursor',
          tag: 'events',
          scope:
            'jobs:read`, `applications:write` or `screening` (each opens its own event types: job.*; application.* and candidate.*; match.* and screening.*)',
          success: { 200: EventsPage },
        }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return events.feed(principal.accountId, principal.scopes, request.query, principal.livemode);
    },
  );
};
