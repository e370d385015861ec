import { KeyParams } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const revokeKey: Route = (app, { keys }) => {
  app.delete(
    '/console/v1/accounts/:accountId/keys/:keyId',
    { config: { console: true }, schema: { hide: true, params: KeyParams } },
    async (request, reply) => {
      await keys.revoke(request.params.accountId, request.params.keyId);
      return reply.code(204).send();
    },
  );
};
