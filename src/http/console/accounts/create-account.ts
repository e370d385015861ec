import { AccountCreate } from '../../../contract/console.ts';
import type { Route } from '../../types.ts';

export const createAccount: Route = (app, { services: { accounts } }) => {
  app.post(
    '/console/v1/accounts',
    { config: { console: true }, schema: { hide: true, body: AccountCreate } },
    async (request, reply) => reply.code(201).send({ account: await accounts.create(request.body) }),
  );
};
