import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import { forbidden, notFound, rateLimited } from '../../../domain/errors.ts';
import { addressBucket } from '../../../lib/client-address.ts';
import type { App } from '../../types.ts';
import { type ApplyDeps, addressLimited } from './apply-context.ts';
import { cookieNonce } from './form-view.ts';
import { ApplyParams } from './show-form.ts';

/** POST /apply/{jobId}/upload: the enhanced form asks for a presigned upload slot, as an integrator would. */
export function applyUploadSlot(app: App, deps: ApplyDeps): void {
  const { publicJobs, formTokens, uploads } = deps.services;
  app.post(
    '/apply/:jobId/upload',
    {
      schema: {
        hide: true,
        params: ApplyParams,
        body: Type.Object(
          {
            bytes: Type.Integer({ minimum: 1, maximum: deps.services.cvLimits.maxBytes }),
            csrf: Text({ maxLength: 200 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const retry = await addressLimited(deps, request);
      if (retry !== null) throw rateLimited('Too many attempts from this address; retry in a minute.', retry);
      if (!(await formTokens.verify(request.params.jobId, request.body.csrf, cookieNonce(request)))) {
        throw forbidden('The form expired; reload the page.');
      }
      const target = await publicJobs.applyTarget(request.params.jobId);
      if (target.kind !== 'open') throw notFound('Job');
      const slot = await uploads.create(target.account.id, { bytes: request.body.bytes }, undefined, {
        bucket: addressBucket(request.ip),
      });
      return reply.code(201).send({ uploadId: slot.uploadId, uploadUrl: slot.uploadUrl });
    },
  );
}
