import { AccountParams, type ApiKey, KeyCreate } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const createKey: Route = (app, { services: { keys, audit } }) => {
  app.post(
    '/console/v1/accounts/:accountId/keys',
    { config: { console: true }, schema: { hide: true, params: AccountParams, body: KeyCreate } },
    async (request, reply) => {
      const { accountId } = request.params;
      const minted = await keys.mint(
        accountId,
        request.body,
        audit.sealed(accountId, { kind: 'operator' }, (result: { key: ApiKey }) => ({
          action: 'key.minted',
          target: result.key.id,
          detail: { name: result.key.name, scopes: result.key.scopes },
        })),
      );
      // The secret is shown once; nothing between here and the caller may keep a copy.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(minted);
    },
  );
};
