import { Type } from 'typebox';
import { PublishBody } from '../../../contract/job.ts';
import { Text } from '../../../contract/text.ts';
import type { Route } from '../../types.ts';

const JobPath = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
});
const AccountPath = Type.Object({ accountId: Text({ minLength: 1, maxLength: 64 }) });
const base = '/console/v1/accounts/:accountId/jobs';

export const listAccountJobs: Route = (app, { services: { jobs } }) => {
  app.get(
    base,
    { config: { console: true }, schema: { hide: true, params: AccountPath } },
    async (request) => ({
      jobs: await jobs.listForConsole(request.params.accountId),
    }),
  );
};

export const consolePublishJob: Route = (app, { services: { jobs } }) => {
  app.post(
    `${base}/:jobId/publish`,
    { config: { console: true }, schema: { hide: true, params: JobPath, body: Type.Optional(PublishBody) } },
    async (request) => jobs.publish(request.params.accountId, request.params.jobId, request.body ?? {}),
  );
};

export const promoteJob: Route = (app, { services: { jobs } }) => {
  app.post(
    `${base}/:jobId/promote`,
    { config: { console: true }, schema: { hide: true, params: JobPath } },
    async (request) => jobs.promote(request.params.accountId, request.params.jobId),
  );
};

export const manageJob: Route = (app, { services: { jobs } }) => {
  app.post(
    `${base}/:jobId/manage`,
    { config: { console: true }, schema: { hide: true, params: JobPath } },
    async (request) => jobs.manage(request.params.accountId, request.params.jobId),
  );
};

export const unmanageJob: Route = (app, { services: { jobs } }) => {
  app.post(
    `${base}/:jobId/unmanage`,
    { config: { console: true }, schema: { hide: true, params: JobPath } },
    async (request) => jobs.unmanage(request.params.accountId, request.params.jobId),
  );
};
