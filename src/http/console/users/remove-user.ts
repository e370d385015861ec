import { UserParams } from '../../../contract/console-users.ts';
import type { Route } from '../../types.ts';

export const removeUser: Route = (app, { services: { consoleUsers } }) => {
  app.delete(
    '/console/v1/accounts/:accountId/users/:userId',
    { config: { console: true }, schema: { hide: true, params: UserParams } },
    async (request, reply) => {
      await consoleUsers.remove(request.params.accountId, request.params.userId, { kind: 'operator' });
      return reply.code(204).send();
    },
  );
};
