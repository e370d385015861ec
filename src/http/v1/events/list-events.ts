import { EventsPage, EventsQuery } from '../../../contract/events.ts';
import { SCOPES } from '../../../contract/vocabulary.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const listEvents: Route = (app, { events }) => {
  app.get(
    '/v1/events',
    {
      config: { anyScope: SCOPES },
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
      return events.feed(principal.accountId, principal.scopes, request.query);
    },
  );
};
