import { Type } from 'typebox';
import { ApplicationParams, ApplicationStatusBody } from '../../../contract/intake.ts';
import { Screening } from '../../../contract/screening.ts';
import { Text } from '../../../contract/text.ts';
import { enumOf } from '../../../contract/vocabulary.ts';
import { TEST_CV_MOVE_NAMES } from '../../../domain/cv/cv-service.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';
import { testPrincipal } from './test-jobs.ts';

const CvMove = Type.Object(
  {
    to: enumOf(
      TEST_CV_MOVE_NAMES,
      'staged or failed (from processing), claimed or deleted (from staged); any other move is 409.',
    ),
  },
  { additionalProperties: false },
);

export const testMoveCv: Route = (app, { services: { cv, applications } }) => {
  app.post(
    '/v1/test/applications/:applicationId/cv',
    {
      config: { scope: 'applications:write' },
      schema: {
        params: ApplicationParams,
        body: CvMove,
        ...v1Docs({
          operationId: 'testMoveCv',
          summary: "Test keys only: move a test application's CV along api.md's transitions, with its events",
          tag: 'applications',
          scope: 'applications:write',
          success: { 200: ApplicationStatusBody },
          errors: ['not_found', 'conflict'],
        }),
      },
    },
    async (request) => {
      const { accountId } = testPrincipal(request);
      await cv.moveForTest(accountId, request.params.applicationId, request.body.to);
      return applications.status(accountId, request.params.applicationId);
    },
  );
};

export const testCompleteScreening: Route = (app, { services: { screening } }) => {
  app.post(
    '/v1/test/screenings/:screeningId/complete',
    {
      config: { scope: 'screening' },
      schema: {
        params: Type.Object({
          screeningId: Text({ minLength: 1, maxLength: 64, description: 'A test screening’s id.' }),
        }),
        ...v1Docs({
          operationId: 'testCompleteScreening',
          summary:
            'Test keys only: the candidate completes an open test screening (screening.completed follows)',
          tag: 'screening',
          scope: 'screening',
          success: { 200: Type.Object({ screening: Screening }) },
          errors: ['not_found', 'conflict'],
        }),
      },
    },
    async (request) => ({
      screening: await screening.complete(testPrincipal(request).accountId, request.params.screeningId),
    }),
  );
};
