import { AccountParams, KeyCreate } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const createKey: Route = (app, { keys }) => {
  app.post(
    '/console/v1/accounts/:accountId/keys',
    { config: { console: true }, schema: { hide: true, params: AccountParams, body: KeyCreate } },
    async (request, reply) => {
      const minted = await keys.mint(request.params.accountId, request.body);
      // The secret is shown once; nothing between here and the caller may keep a copy.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(minted);
    },
  );
};
