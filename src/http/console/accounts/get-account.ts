import { AccountParams } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const getAccount: Route = (app, { services: { accounts } }) => {
  app.get(
    '/console/v1/accounts/:accountId',
    { config: { console: true }, schema: { hide: true, params: AccountParams } },
    async (request) => ({ account: await accounts.get(request.params.accountId) }),
  );
};
