import { AccountParams } from '../../../contract/console.ts';
import {
  CandidateParams,
  ErasureListQuery,
  type ErasureReceipt,
  PeopleErase,
  PeopleExportQuery,
} from '../../../contract/privacy.ts';
import type { Route } from '../../types.ts';

/**
 * Access and erasure requests (extensions.md §6), with the operator token like the rest of
 * /console/v1. Each is audited without the address in clear: the receipt's keyed hash stands for it.
 */
export const exportPerson: Route = (app, { services: { privacy, audit } }) => {
  app.get(
    '/console/v1/accounts/:accountId/people/export',
    {
      config: { console: true },
      schema: { hide: true, params: AccountParams, querystring: PeopleExportQuery },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const document = await privacy.exportAddress(
        accountId,
        request.query.email,
        audit.sealed(accountId, { kind: 'operator' }, (out: { addressHash: string }) => ({
          action: 'people.exported',
          detail: { addressHash: out.addressHash },
        })),
      );
      return reply.header('cache-control', 'no-store').send(document);
    },
  );
};

export const erasePerson: Route = (app, { services: { privacy, audit } }) => {
  app.post(
    '/console/v1/accounts/:accountId/people/erase',
    {
      config: { console: true },
      schema: { hide: true, params: AccountParams, body: PeopleErase },
    },
    async (request) => {
      const { accountId } = request.params;
      const receipt = await privacy.eraseAddress(
        accountId,
        request.body.email,
        audit.sealed(accountId, { kind: 'operator' }, (out: ErasureReceipt) => ({
          action: 'people.erased',
          target: out.id,
          detail: { applications: out.applications, candidates: out.candidates, files: out.files },
        })),
      );
      return { receipt };
    },
  );
};

export const listErasures: Route = (app, { services: { privacy } }) => {
  app.get(
    '/console/v1/accounts/:accountId/people/erasures',
    {
      config: { console: true },
      schema: { hide: true, params: AccountParams, querystring: ErasureListQuery },
    },
    async (request) => privacy.receipts(request.params.accountId, request.query),
  );
};

/** Art. 14: the account records that it told an imported person it holds their data. */
export const markInformed: Route = (app, { services: { privacy, audit } }) => {
  app.post(
    '/console/v1/accounts/:accountId/candidates/:candidateId/informed',
    { config: { console: true }, schema: { hide: true, params: CandidateParams } },
    async (request) => {
      const { accountId, candidateId } = request.params;
      return privacy.markInformed(
        accountId,
        candidateId,
        audit.sealed(accountId, { kind: 'operator' }, () => ({
          action: 'candidate.informed',
          target: candidateId,
        })),
      );
    },
  );
};
