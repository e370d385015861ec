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

const AccountPath = Type.Object({ accountId: Text({ minLength: 1, maxLength: 64 }) });
const LogQuery = Type.Object(
  {
    from: Type.Optional(Text({ maxLength: 40 })),
    to: Type.Optional(Text({ maxLength: 40 })),
    cursor: Type.Optional(Text({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
  },
  { additionalProperties: false },
);

/**
 * GET …/accounts/{accountId}/matches/log?from=&to=&cursor= → { entries, nextCursor }: the decision
 * log, oldest first; `format=csv` downloads every entry of the range as a CSV file.
 */
export const matchDecisionLog: Route = (app, { services: { matchDecisions } }) => {
  app.get(
    '/console/v1/accounts/:accountId/matches/log',
    { config: { console: true }, schema: { hide: true, params: AccountPath, querystring: LogQuery } },
    async (request, reply) => {
      const { accountId } = request.params;
      const { format, ...query } = request.query;
      if (format === 'csv') {
        const csv = await matchDecisions.logCsv(accountId, { from: query.from, to: query.to });
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="matching-decisions-${accountId}.csv"`)
          .header('cache-control', 'no-store')
          .send(csv);
      }
      return matchDecisions.log(accountId, query);
    },
  );
};

/** GET …/jobs/{jobId}/matches/{matchId}/explanation → { score, rankerVersion, createdAt, components, reasons }. */
export const explainMatchRoute: Route = (app, { services: { matchDecisions } }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/matches/:matchId/explanation',
    { config: { console: true }, schema: { hide: true, params: MatchPath } },
    async (request) => {
      const { accountId, jobId, matchId } = request.params;
      const { score, rankerVersion, createdAt, components, reasons } = await matchDecisions.explanation(
        accountId,
        jobId,
        matchId,
      );
      return { score, rankerVersion, createdAt, components, reasons };
    },
  );
};
