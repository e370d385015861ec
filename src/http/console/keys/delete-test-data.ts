import { AccountParams } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

/** Test mode (extensions.md §8): erases all of the account's test data; keys and webhooks stay. */
export const deleteTestData: Route = (app, { services: { testData } }) => {
  app.delete(
    '/console/v1/accounts/:accountId/test-data',
    { config: { console: true }, schema: { hide: true, params: AccountParams } },
    async (request) => ({ deleted: await testData.eraseAll(request.params.accountId) }),
  );
};
