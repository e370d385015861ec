import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { JobParams } from '../../../contract/job.ts';
import { notFound } from '../../../domain/errors.ts';
import type { Principal } from '../../../domain/keys/key-service.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { AuthoredJobRef, v1Docs } from '../schema.ts';

/**
 * Test helpers (extensions.md §8): /v1/test/… moves a test key's data as time or the console
 * would, emitting the events the real change emits. A live key gets the 404 of an unknown route.
 */
export function testPrincipal(request: FastifyRequest): Principal {
  const principal = principalOf(request);
  if (principal.livemode) throw notFound('Route');
  return principal;
}

const Managed = Type.Object({ job: AuthoredJobRef, managed: Type.Boolean() });

export const testManageJob: Route = (app, { services: { jobs } }) => {
  app.post(
    '/v1/test/jobs/:jobId/manage',
    {
      config: { scope: 'jobs:write' },
      schema: {
        params: JobParams,
        ...v1Docs({
          operationId: 'testManageJob',
          summary: 'Test keys only: make a test job a managed ad, as the console does',
          tag: 'jobs',
          scope: 'jobs:write',
          success: { 200: Managed },
          errors: ['not_found', 'conflict', 'no_slot_available'],
        }),
      },
    },
    async (request) => jobs.manage(testPrincipal(request).accountId, request.params.jobId),
  );
};

export const testUnmanageJob: Route = (app, { services: { jobs } }) => {
  app.post(
    '/v1/test/jobs/:jobId/unmanage',
    {
      config: { scope: 'jobs:write' },
      schema: {
        params: JobParams,
        ...v1Docs({
          operationId: 'testUnmanageJob',
          summary: 'Test keys only: end a test job’s managed ad, as the console does',
          tag: 'jobs',
          scope: 'jobs:write',
          success: { 200: Managed },
          errors: ['not_found'],
        }),
      },
    },
    async (request) => jobs.unmanage(testPrincipal(request).accountId, request.params.jobId),
  );
};

export const testExpireJob: Route = (app, { services: { jobs } }) => {
  app.post(
    '/v1/test/jobs/:jobId/expire',
    {
      config: { scope: 'jobs:write' },
      schema: {
        params: JobParams,
        ...v1Docs({
          operationId: 'testExpireJob',
          summary: 'Test keys only: a published test job reaches its expiresAt now (job.expired follows)',
          tag: 'jobs',
          scope: 'jobs:write',
          success: { 200: Type.Object({ job: AuthoredJobRef }) },
          errors: ['not_found', 'conflict'],
        }),
      },
    },
    async (request) => jobs.expireForTest(testPrincipal(request).accountId, request.params.jobId),
  );
};
