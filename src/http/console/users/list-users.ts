import { AccountParams } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const listUsers: Route = (app, { services: { consoleUsers } }) => {
  app.get(
    '/console/v1/accounts/:accountId/users',
    { config: { console: true }, schema: { hide: true, params: AccountParams } },
    async (request) => ({ users: await consoleUsers.list(request.params.accountId) }),
  );
};
