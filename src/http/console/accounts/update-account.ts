import { type Account, AccountParams, AccountPatch } from '../../../contract/console.ts';
import { accountChangeFacts } from '../../../domain/console-users/audit-service.ts';
import type { Route } from '../../types.ts';

export const updateAccount: Route = (app, { services: { accounts, audit, matches } }) => {
  app.patch(
    '/console/v1/accounts/:accountId',
    { config: { console: true }, schema: { hide: true, params: AccountParams, body: AccountPatch } },
    async (request) => {
      const { accountId } = request.params;
      // The operator's changes join the account's audit trail, in the update's own transaction.
      const seal = audit.sealed(
        accountId,
        { kind: 'operator' },
        (change: { before: Account; after: Account }) => accountChangeFacts(change.before, change.after),
      );
      const account = await accounts.update(accountId, request.body, seal);
      // Switched (back) on: the account's managed roles are looked at now, not at the next sweep.
      if (request.body.matchingEnabled === true) await matches.refresh(accountId);
      return { account };
    },
  );
};
