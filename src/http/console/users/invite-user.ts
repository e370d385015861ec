import { AccountParams } from '../../../contract/console.ts';
import { UserInvite } from '../../../contract/console-users.ts';
import type { Route } from '../../types.ts';

export const inviteUser: Route = (app, { services: { consoleUsers } }) => {
  app.post(
    '/console/v1/accounts/:accountId/users',
    { config: { console: true }, schema: { hide: true, params: AccountParams, body: UserInvite } },
    async (request, reply) => {
      const invited = await consoleUsers.invite(request.params.accountId, request.body, { kind: 'operator' });
      // The answer carries the single-use invitation link.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(invited);
    },
  );
};
