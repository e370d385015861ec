import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import { forbidden, notFound, rateLimited } from '../../../domain/errors.ts';
import { addressBucket } from '../../../lib/client-address.ts';
import type { App } from '../../types.ts';
import { type ApplyDeps, addressLimited, formTokenValid } from './apply-context.ts';
import { challengeDue } from './challenge.ts';
import { ApplyParams } from './show-form.ts';

/**
 * POST /apply/{jobId}/upload: the enhanced form asks for a presigned upload slot, as an integrator
 * would; `powBits` (0 while calm) is the proof of work the form's post will need.
 */
export function applyUploadSlot(app: App, deps: ApplyDeps): void {
  const { publicJobs, uploads } = deps.services;
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
      if (!(await formTokenValid(deps, request, request.params.jobId, request.body.csrf))) {
        throw forbidden('The form expired; reload the page.');
      }
      const target = await publicJobs.applyTarget(request.params.jobId);
      if (target.kind !== 'open') throw notFound('Job');
      const slot = await uploads.create(target.account.id, { bytes: request.body.bytes }, undefined, {
        bucket: addressBucket(request.ip),
      });
      // Past a burst the form's post will need a proof of work: the script starts on it while the
      // file uploads (the page may have been opened before the burst began).
      const powBits = (await challengeDue(deps, request, request.params.jobId)) ? deps.tunables.powBits : 0;
      return reply.code(201).send({ uploadId: slot.uploadId, uploadUrl: slot.uploadUrl, powBits });
    },
  );
}
