import { AccountParams, AccountPatch } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const updateAccount: Route = (app, { accounts }) => {
  app.patch(
    '/console/v1/accounts/:accountId',
    { config: { console: true }, schema: { hide: true, params: AccountParams, body: AccountPatch } },
    async (request) => ({ account: await accounts.update(request.params.accountId, request.body) }),
  );
};
