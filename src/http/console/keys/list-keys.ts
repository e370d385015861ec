import { AccountParams } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const listKeys: Route = (app, { services: { keys } }) => {
  app.get(
    '/console/v1/accounts/:accountId/keys',
    { config: { console: true }, schema: { hide: true, params: AccountParams } },
    async (request) => ({ keys: await keys.list(request.params.accountId) }),
  );
};
