import { KeyParams } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const revokeKey: Route = (app, { services: { keys, audit } }) => {
  app.delete(
    '/console/v1/accounts/:accountId/keys/:keyId',
    { config: { console: true }, schema: { hide: true, params: KeyParams } },
    async (request, reply) => {
      const { accountId, keyId } = request.params;
      await keys.revoke(
        accountId,
        keyId,
        audit.sealed(accountId, { kind: 'operator' }, () => ({ action: 'key.revoked', target: keyId })),
      );
      return reply.code(204).send();
    },
  );
};
