import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import type { Actor } from '../../../domain/console-users/audit-service.ts';
import type { Route } from '../../types.ts';

/** The operator's decisions join the account's audit trail as the operator's. */
const OPERATOR: Actor = { kind: 'operator' };

const MatchPath = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
  matchId: Text({ minLength: 1, maxLength: 64 }),
});
const JobPath = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
});

/** The body's reason, whatever was sent: the service answers 400 for a missing or long one. */
const reasonOf = (body: unknown): unknown =>
  body !== null && typeof body === 'object' ? (body as { reason?: unknown }).reason : undefined;

/** POST …/matches/{matchId}/dismiss { reason } → 200 { match }: out of the list and the cap; audited. */
export const dismissMatch: Route = (app, { services: { matchDecisions } }) => {
  app.post(
    '/console/v1/accounts/:accountId/jobs/:jobId/matches/:matchId/dismiss',
    { config: { console: true }, schema: { hide: true, params: MatchPath } },
    async (request) => {
      const { accountId, jobId, matchId } = request.params;
      return {
        match: await matchDecisions.dismiss(accountId, jobId, matchId, reasonOf(request.body), OPERATOR),
      };
    },
  );
};

/** POST …/matches/{matchId}/restore { reason? } → 200 { match }: back in the list; audited. */
export const restoreMatch: Route = (app, { services: { matchDecisions } }) => {
  app.post(
    '/console/v1/accounts/:accountId/jobs/:jobId/matches/:matchId/restore',
    { config: { console: true }, schema: { hide: true, params: MatchPath } },
    async (request) => {
      const { accountId, jobId, matchId } = request.params;
      return {
        match: await matchDecisions.restore(accountId, jobId, matchId, reasonOf(request.body), OPERATOR),
      };
    },
  );
};

/** GET …/jobs/{jobId}/matches/dismissed → { matches }: the role's dismissed matches, latest first. */
export const listDismissedMatches: Route = (app, { services: { matchDecisions } }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/matches/dismissed',
    { config: { console: true }, schema: { hide: true, params: JobPath } },
    async (request) => ({
      matches: await matchDecisions.dismissed(request.params.accountId, request.params.jobId),
    }),
  );
};
