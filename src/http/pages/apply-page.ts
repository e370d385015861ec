import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Route } from '../types.ts';
import type { ApplyDeps } from './apply/apply-context.ts';
import { applyScriptAsset } from './apply/script-asset.ts';
import { showApplyForm } from './apply/show-form.ts';
import { submitApplyForm } from './apply/submit-form.ts';
import { applyUploadSlot } from './apply/upload-slot.ts';
import { acceptForms, FORM_LIMITS } from './form-body.ts';

export { APPLY_POSTS_PER_MINUTE } from './apply/apply-context.ts';

/**
 * The hosted apply page at `applyLink`: a form that works without JavaScript (multipart POST with
 * the PDF) and, with it, sends the CV through the same presigned upload as the API. One file per
 * route under `./apply/`; the application itself is assembled by the intake service.
 */
export const applyPages: Route = (app, { services, rateLimits, clock, secureCookies, applyPage }) => {
  const deps: ApplyDeps = { services, rateLimits, clock, secureCookies, tunables: applyPage };
  app.register(async (plugin) => {
    const pages = plugin.withTypeProvider<TypeBoxTypeProvider>();
    await pages.register(multipart, {
      limits: { fileSize: services.cvLimits.maxBytes, ...FORM_LIMITS.multipart },
    });
    acceptForms(pages, FORM_LIMITS.apply);
    showApplyForm(pages, deps);
    applyUploadSlot(pages, deps);
    submitApplyForm(pages, deps);
  });
  applyScriptAsset(app);
};
