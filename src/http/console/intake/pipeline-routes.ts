import {
  ApplicationParams,
  BulkStageMove,
  JobApplicationsParams,
  NoteWrite,
  StageMove,
} from '../../../contract/pipeline.ts';
import type { Actor } from '../../../domain/console-users/audit-service.ts';
import type { Route } from '../../types.ts';

/** The operator's changes join the account's audit trail as the operator's. */
const OPERATOR: Actor = { kind: 'operator' };

/** GET …/applications/{applicationId} → { application }: stage, notes, answers, source, receipt. */
export const consoleGetApplication: Route = (app, { services: { pipeline } }) => {
  app.get(
    '/console/v1/accounts/:accountId/applications/:applicationId',
    { config: { console: true }, schema: { hide: true, params: ApplicationParams } },
    async (request) => ({
      application: await pipeline.get(request.params.accountId, request.params.applicationId),
    }),
  );
};

/** POST …/applications/{applicationId}/stage { stage } → 200 { application }; audited, with its event. */
export const moveApplicationStage: Route = (app, { services: { pipeline } }) => {
  app.post(
    '/console/v1/accounts/:accountId/applications/:applicationId/stage',
    { config: { console: true }, schema: { hide: true, params: ApplicationParams, body: StageMove } },
    async (request) => {
      const { accountId, applicationId } = request.params;
      return {
        application: await pipeline.moveStage(accountId, applicationId, request.body.stage, OPERATOR),
      };
    },
  );
};

/** POST …/jobs/{jobId}/applications/stage { applicationIds (≤ 100), stage } → 200 { moved }. */
export const moveApplicationStages: Route = (app, { services: { pipeline } }) => {
  app.post(
    '/console/v1/accounts/:accountId/jobs/:jobId/applications/stage',
    { config: { console: true }, schema: { hide: true, params: JobApplicationsParams, body: BulkStageMove } },
    async (request) => {
      const { accountId, jobId } = request.params;
      const { applicationIds, stage } = request.body;
      return pipeline.moveStages(accountId, jobId, applicationIds, stage, OPERATOR);
    },
  );
};

/** POST …/applications/{applicationId}/notes { text } → 201 { note }. */
export const addApplicationNote: Route = (app, { services: { pipeline } }) => {
  app.post(
    '/console/v1/accounts/:accountId/applications/:applicationId/notes',
    { config: { console: true }, schema: { hide: true, params: ApplicationParams, body: NoteWrite } },
    async (request, reply) => {
      const { accountId, applicationId } = request.params;
      const note = await pipeline.addNote(accountId, applicationId, request.body.text, OPERATOR);
      return reply.code(201).send({ note });
    },
  );
};

/** GET …/applications/{applicationId}/cv.pdf: the candidate's PDF while held, as an attachment; audited. */
export const downloadApplicationCv: Route = (app, { services: { pipeline } }) => {
  app.get(
    '/console/v1/accounts/:accountId/applications/:applicationId/cv.pdf',
    { config: { console: true }, schema: { hide: true, params: ApplicationParams } },
    async (request, reply) => {
      const { accountId, applicationId } = request.params;
      const file = await pipeline.cvFile(accountId, applicationId, OPERATOR);
      return sendPdf(reply, file);
    },
  );
};

/** The PDF as a download: never shown inline, never cached, never sniffed. */
export function sendPdf(
  reply: import('fastify').FastifyReply,
  file: { bytes: Buffer; fileName: string },
): import('fastify').FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.bytes);
}
