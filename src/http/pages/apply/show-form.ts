import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import type { App } from '../../types.ts';
import { readEmbed } from '../embed-mode.ts';
import { countPageView } from '../page-views.ts';
import { type ApplyDeps, formPage } from './apply-context.ts';
import { closedPage, langOf } from './form-view.ts';
import { emptyQuestionState, readUtm } from './question-fields.ts';

export const ApplyParams = Type.Object({ jobId: Text({ minLength: 1, maxLength: 64 }) });

/** GET /apply/{jobId}: the empty form, or the 404/410 page when the role takes no applications. */
export function showApplyForm(app: App, deps: ApplyDeps): void {
  app.get('/apply/:jobId', { schema: { hide: true, params: ApplyParams } }, async (request, reply) => {
    const lang = langOf(request);
    const target = await deps.services.publicJobs.applyTarget(request.params.jobId);
    if (target.kind !== 'open') return closedPage(reply, lang, target.kind === 'closed' ? target.job : null);
    countPageView(request, deps.services.pageViews, target.job.id, 'apply_page');
    const via = (request.query as { via?: unknown }).via === 'job_page' ? 'job_page' : 'integrator_site';
    return formPage(deps, reply, {
      job: target.job,
      lang,
      state: {
        values: {},
        errors: {},
        questions: emptyQuestionState(readUtm((name) => (request.query as Record<string, unknown>)[name])),
      },
      status: 200,
      source: via,
      embed: readEmbed(request),
      frameOrigins: target.account.embed_origins,
    });
  });
}
