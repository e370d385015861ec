import { AccountParams } from '../../../contract/console.ts';
import { AuditQuery } from '../../../contract/console-users.ts';
import type { Route } from '../../types.ts';

export const listAudit: Route = (app, { services: { audit } }) => {
  app.get(
    '/console/v1/accounts/:accountId/audit',
    { config: { console: true }, schema: { hide: true, params: AccountParams, querystring: AuditQuery } },
    async (request) => audit.list(request.params.accountId, request.query),
  );
};
