import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import type { Route } from '../../types.ts';

const JobPath = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
});
const Email = Text({ format: 'email', minLength: 3, maxLength: 254 });

export const listJobApplications: Route = (app, { applications }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/applications',
    { config: { console: true }, schema: { hide: true, params: JobPath } },
    async (request) => ({
      applications: await applications.listForJob(request.params.accountId, request.params.jobId),
    }),
  );
};

export const addPerson: Route = (app, { candidates }) => {
  app.post(
    '/console/v1/people',
    {
      config: { console: true },
      schema: {
        hide: true,
        body: Type.Object(
          { email: Email, name: Text({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => reply.code(201).send({ person: await candidates.addPerson(request.body) }),
  );
};

export const addSuppression: Route = (app, { candidates }) => {
  app.post(
    '/console/v1/suppressions',
    {
      config: { console: true },
      schema: { hide: true, body: Type.Object({ email: Email }, { additionalProperties: false }) },
    },
    async (request, reply) => reply.code(201).send({ suppression: await candidates.suppress(request.body) }),
  );
};
