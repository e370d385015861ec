import { AccountList, AccountListQuery } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const listAccounts: Route = (app, { services: { accounts } }) => {
  app.get(
    '/console/v1/accounts',
    {
      config: { console: true },
      schema: { hide: true, querystring: AccountListQuery, response: { 200: AccountList } },
    },
    async (request) => accounts.list(request.query),
  );
};
