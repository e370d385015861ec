import { AccountParams } from '../../../contract/console.ts';
import type { TestDataCounts } from '../../../domain/privacy/test-data-repository.ts';
import type { Route } from '../../types.ts';

/** Test mode (extensions.md §8): erases all of the account's test data; keys and webhooks stay. */
export const deleteTestData: Route = (app, { services: { testData, audit } }) => {
  app.delete(
    '/console/v1/accounts/:accountId/test-data',
    { config: { console: true }, schema: { hide: true, params: AccountParams } },
    async (request) => {
      const { accountId } = request.params;
      const deleted = await testData.eraseAll(
        accountId,
        audit.sealed(accountId, { kind: 'operator' }, (counts: TestDataCounts) => ({
          action: 'test_data.deleted',
          target: accountId,
          detail: { ...counts },
        })),
      );
      return { deleted };
    },
  );
};
