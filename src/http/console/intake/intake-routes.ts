import { Type } from 'typebox';
import { UploadCreate } from '../../../contract/intake.ts';
import { ApplicationListQuery, JobApplicationsParams } from '../../../contract/pipeline.ts';
import { Text } from '../../../contract/text.ts';
import { LocaleSchema } from '../../../contract/vocabulary.ts';
import type { Route } from '../../types.ts';

const Email = Text({ format: 'email', minLength: 3, maxLength: 254 });

/**
 * A job's applications, a page at a time (extensions.md §4): search, filters, sort, cursor, and
 * the job's counts by stage whatever the filters.
 */
export const listJobApplications: Route = (app, { services: { pipeline } }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/applications',
    {
      config: { console: true },
      schema: { hide: true, params: JobApplicationsParams, querystring: ApplicationListQuery },
    },
    async (request) => pipeline.list(request.params.accountId, request.params.jobId, request.query),
  );
};

/**
 * The job's voluntary demographic answers as counts per question and value (extensions.md §5); a
 * count under 5 is `null` with `fewerThan5: true`. Never per application.
 */
export const jobDemographics: Route = (app, { services: { applications } }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/demographics',
    { config: { console: true }, schema: { hide: true, params: JobApplicationsParams } },
    async (request) => applications.demographicCounts(request.params.accountId, request.params.jobId),
  );
};

const PersonPath = Type.Object({ personId: Text({ minLength: 1, maxLength: 64 }) });
const UploadId = Type.Object(
  { uploadId: Text({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/**
 * A job seeker who holds a platform account (console.md). `openToMatches` (default false) puts them
 * in every account's matching pool once `cv` (an upload from POST /console/v1/uploads) is built
 * (extensions.md §2, Pool).
 */
export const addPerson: Route = (app, { services: { people } }) => {
  app.post(
    '/console/v1/people',
    {
      config: { console: true },
      schema: {
        hide: true,
        body: Type.Object(
          {
            email: Email,
            name: Text({ minLength: 1, maxLength: 200 }),
            openToMatches: Type.Optional(Type.Boolean()),
            locale: Type.Optional(LocaleSchema),
            cv: Type.Optional(UploadId),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => reply.code(201).send({ person: await people.add(request.body) }),
  );
};

/** The platform's upload slot for a person's CV: the same presigned PUT as POST /v1/uploads. */
export const platformUpload: Route = (app, { services: { people } }) => {
  app.post(
    '/console/v1/uploads',
    { config: { console: true }, schema: { hide: true, body: UploadCreate } },
    async (request, reply) => reply.code(201).send(await people.uploadSlot(request.body)),
  );
};

export const getPerson: Route = (app, { services: { people } }) => {
  app.get(
    '/console/v1/people/:personId',
    { config: { console: true }, schema: { hide: true, params: PersonPath } },
    async (request) => ({ person: await people.get(request.params.personId) }),
  );
};

/** The person's later choice (not in console.md; docs/decisions.md): `{ openToMatches }`, at once. */
export const updatePerson: Route = (app, { services: { people } }) => {
  app.patch(
    '/console/v1/people/:personId',
    {
      config: { console: true },
      schema: {
        hide: true,
        params: PersonPath,
        body: Type.Object({ openToMatches: Type.Boolean() }, { additionalProperties: false }),
      },
    },
    async (request) => ({
      person: await people.setOpenToMatches(request.params.personId, request.body.openToMatches),
    }),
  );
};

/** The person deleted their virtual CV: file and CV erased, out of every pool and match at once. */
export const deletePersonCv: Route = (app, { services: { people } }) => {
  app.delete(
    '/console/v1/people/:personId/cv',
    { config: { console: true }, schema: { hide: true, params: PersonPath } },
    async (request) => ({ person: await people.deleteCv(request.params.personId) }),
  );
};

export const addSuppression: Route = (app, { services: { candidates } }) => {
  app.post(
    '/console/v1/suppressions',
    {
      config: { console: true },
      schema: { hide: true, body: Type.Object({ email: Email }, { additionalProperties: false }) },
    },
    async (request, reply) => reply.code(201).send({ suppression: await candidates.suppress(request.body) }),
  );
};
