import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import type { Route } from '../../types.ts';

const AccountPath = Type.Object({ accountId: Text({ minLength: 1, maxLength: 64 }) });

/** GET /console/v1/accounts/{accountId}/summary: Home's figures (extensions.md §4) for automation. */
export const accountSummary: Route = (app, { services: { insights } }) => {
  app.get(
    '/console/v1/accounts/:accountId/summary',
    { config: { console: true }, schema: { hide: true, params: AccountPath } },
    async (request) => ({ summary: await insights.summary(request.params.accountId) }),
  );
};
