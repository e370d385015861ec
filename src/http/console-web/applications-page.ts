import type { FastifyRequest } from 'fastify';
import { CV_STATUSES } from '../../contract/intake.ts';
import { APPLICATION_SORTS, APPLICATION_STAGES } from '../../contract/pipeline.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { notFound } from '../../domain/errors.ts';
import type { AnswerChoice } from '../../domain/intake/answer-filter.ts';
import type { ListedApplication, ListQuery, StageCounts } from '../../domain/intake/pipeline-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { registerApplicationPage } from './application-page.ts';
import { csrfField, renderConsole } from './layout.ts';
import { pipelineScriptAsset } from './pipeline-script.ts';
import { CV_LABELS, CV_SHORT, isStage, SORT_LABELS, STAGE_LABELS, sourceLabel } from './pipeline-words.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

export { CV_WORDS } from './application-page.ts';

/** The list's query as the page reads it: unknown values are dropped, never an error page. */
interface PageQuery {
  q: string;
  stage: string;
  source: string;
  cv: string;
  /** `questionId:value` (answer-filter.ts). */
  answer: string;
  sort: string;
  cursor: string;
  /** The page's number, shown only (the cursor is what pages). */
  page: string;
}

const KEYS = ['q', 'stage', 'source', 'cv', 'answer', 'sort', 'cursor', 'page'] as const;

function readPageQuery(raw: Record<string, unknown>): PageQuery {
  const text = (name: string, max: number) => {
    const value = raw[name];
    return typeof value === 'string' ? value.slice(0, max) : '';
  };
  const stage = text('stage', 20);
  const cv = text('cv', 20);
  const sort = text('sort', 10);
  return {
    q: text('q', 200).trim(),
    stage: isStage(stage) ? stage : '',
    source: /^[\w.-]{1,64}$/.test(text('source', 64)) ? text('source', 64) : '',
    cv: (CV_STATUSES as readonly string[]).includes(cv) ? cv : '',
    answer: /^[a-z0-9_]{1,40}:[a-z0-9_]{1,40}$/.test(text('answer', 82)) ? text('answer', 82) : '',
    sort: (APPLICATION_SORTS as readonly string[]).includes(sort) ? sort : '',
    cursor: /^[A-Za-z0-9_-]{1,200}$/.test(text('cursor', 200)) ? text('cursor', 200) : '',
    page: /^[1-9]\d{0,3}$/.test(text('page', 4)) ? text('page', 4) : '',
  };
}

/** The page's URL for this query with `change` applied (empty values left out). */
function pageUrl(jobId: string, query: PageQuery, change: Partial<PageQuery> = {}): string {
  const params = new URLSearchParams();
  const next = { ...query, ...change };
  for (const key of KEYS) if (next[key]) params.set(key, next[key]);
  const search = params.toString();
  return `/console/jobs/${jobId}/applications${search ? `?${search}` : ''}`;
}

function toListQuery(query: PageQuery): ListQuery {
  return {
    ...(query.q ? { q: query.q } : {}),
    ...(query.stage ? { stage: query.stage } : {}),
    ...(query.source ? { source: query.source } : {}),
    ...(query.cv ? { cvStatus: query.cv } : {}),
    ...(query.answer ? { answer: query.answer } : {}),
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.cursor ? { cursor: query.cursor } : {}),
    limit: 50,
  };
}

const option = (value: string, label: string, chosen: string) =>
  html`<option value="${value}"${value === chosen && html` selected`}>${label}</option>`;

/** The counts by stage, each a link that filters the list to that stage. */
function stageCounts(jobId: string, query: PageQuery, counts: StageCounts): SafeHtml {
  const link = (stage: string, label: string, n: number) => {
    const current = query.stage === stage;
    return html`<li><a href="${pageUrl(jobId, query, { stage, cursor: '', page: '' })}"${current && html` aria-current="true"`}>${label} <span class="n">${n.toLocaleString('en')}</span></a></li>`;
  };
  return html`<nav aria-label="Applications by stage"><ul class="stages">${link('', 'All', counts.total)}${APPLICATION_STAGES.map(
    (stage) => link(stage, STAGE_LABELS[stage], counts.byStage[stage]),
  )}</ul></nav>`;
}

/** The answer filter: one list, a group per select or yes/no question, shown when the job has one. */
function answerFilter(query: PageQuery, choices: AnswerChoice[]): SafeHtml {
  if (choices.length === 0) return html``;
  const groups = choices.map(
    (c) =>
      html`<optgroup label="${c.label}">${c.options.map((o) => option(`${c.questionId}:${o.value}`, o.label, query.answer))}</optgroup>`,
  );
  return html`<div><label for="f-answer">Answered</label><select id="f-answer" name="answer"><option value="">Any answer</option>${groups}</select></div>`;
}

function filterForm(jobId: string, query: PageQuery, channels: string[], choices: AnswerChoice[]): SafeHtml {
  const stages = APPLICATION_STAGES.map((s) => option(s, STAGE_LABELS[s], query.stage));
  const sources = channels.map((c) => option(c, sourceLabel(c), query.source));
  const cvs = CV_STATUSES.map((s) => option(s, CV_LABELS[s] ?? s, query.cv));
  const sorts = APPLICATION_SORTS.map((s) => option(s, SORT_LABELS[s] ?? s, query.sort || 'newest'));
  return html`<form class="filters" method="get" action="/console/jobs/${jobId}/applications" role="search" aria-label="Find applications">
<div><label for="f-q">Name or email</label><input id="f-q" type="search" name="q" value="${query.q}" maxlength="200"></div>
<div><label for="f-stage">Stage</label><select id="f-stage" name="stage"><option value="">Any stage</option>${stages}</select></div>
<div><label for="f-source">Came from</label><select id="f-source" name="source"><option value="">Anywhere</option>${sources}</select></div>
<div><label for="f-cv">CV</label><select id="f-cv" name="cv"><option value="">Any CV state</option>${cvs}</select></div>${answerFilter(query, choices)}
<div><label for="f-sort">Sort</label><select id="f-sort" name="sort">${sorts}</select></div>
<div class="go"><button type="submit">Show</button> <a href="/console/jobs/${jobId}/applications">Clear</a></div></form>`;
}

function row(a: ListedApplication): SafeHtml {
  const name = a.name ?? 'Erased candidate';
  const id = `sel-${a.applicationId}`;
  return html`<tr><td class="pick"><input type="checkbox" id="${id}" name="ids" value="${a.applicationId}"><label for="${id}" class="hp">Select ${name}</label></td>
<th scope="row"><a href="/console/applications/${a.applicationId}">${name}</a>${a.email && html`<br><span class="muted small">${a.email}</span>`}</th>
<td data-label="Applied"><time datetime="${a.createdAt}">${a.createdAt.slice(0, 10)}</time></td>
<td data-label="Stage"><span class="stage stage-${a.stage}">${STAGE_LABELS[a.stage]}</span></td>
<td data-label="Came from">${sourceLabel(a.source)}</td>
<td data-label="CV">${CV_SHORT[a.cvStatus] ?? a.cvStatus}</td></tr>`;
}

function bulkForm(
  session: ConsoleSession,
  jobId: string,
  query: PageQuery,
  list: ListedApplication[],
  caption: string,
): SafeHtml {
  const stages = APPLICATION_STAGES.map((s) => option(s, STAGE_LABELS[s], 'shortlisted'));
  const back = new URL(pageUrl(jobId, query), 'http://x').search.slice(1);
  return html`<form method="post" action="/console/jobs/${jobId}/applications/stage">${csrfField(session)}<input type="hidden" name="back" value="${back}">
<div class="bulk"><label for="bulk-stage">Move the selected applications to</label> <select id="bulk-stage" name="stage">${stages}</select> <button type="submit">Move selected</button> <span id="selected-count" role="status" class="muted"></span></div>
<div class="scroll"><table class="stack apps"><caption>${caption}</caption><thead><tr><th scope="col"><span class="hp">Select</span></th><th scope="col">Name</th><th scope="col">Applied</th><th scope="col">Stage</th><th scope="col">Came from</th><th scope="col">CV</th></tr></thead>
<tbody>${list.map(row)}</tbody></table></div></form>`;
}

const STYLE = html`<style>ul.stages{list-style:none;padding:0;margin:.5rem 0 1rem;display:flex;flex-wrap:wrap;gap:.4rem}ul.stages a{display:inline-block;padding:.3rem .65rem;border:1px solid #767676;border-radius:999px;color:#1b1b1f;text-decoration:none}
ul.stages a[aria-current]{background:#1b1b1f;color:#fff}ul.stages .n{font-weight:700}form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
form.filters label{display:block;font-weight:600;margin:0 0 .2rem}form.filters input[type=search]{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:4px;width:16rem;max-width:100%;box-sizing:border-box}form.filters>div{max-width:100%}
.bulk{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.5rem 0}.bulk label{font-weight:600}table.apps td.pick{width:2rem}table.apps input[type=checkbox]{width:1.25rem;height:1.25rem}.small{font-size:.9rem}
.stage{display:inline-block;padding:.1rem .5rem;border-radius:4px;background:#eef;border:1px solid #99a}.stage-shortlisted,.stage-offered,.stage-hired{background:#e6f4ea;border-color:#1e7b34}.stage-rejected{background:#f3f3f3;border-color:#767676}
nav.pages{display:flex;gap:1rem;margin:1rem 0}table.apps caption{text-align:left;padding:.25rem 0;color:#444}table.apps tbody th .small{font-weight:400}
@media (max-width:40rem){table.apps td.pick{display:inline-block;width:auto}table.apps tbody th{display:inline-block}table.apps td[data-label]{display:inline-block;padding:.1rem .75rem .1rem .5rem}}</style>`;

async function jobTitle(deps: WebDeps, accountId: string, jobId: string): Promise<string> {
  const job = (await deps.services.jobs.listForConsole(accountId)).find((j) => j.id === jobId);
  if (!job) throw notFound('Job');
  return job.title;
}

function listPage(app: App, deps: WebDeps): void {
  const { pipeline } = deps.services;
  getPage(
    app,
    deps,
    '/console/jobs/:jobId/applications',
    'jobs',
    async ({ request, reply, session, flash }) => {
      const { jobId } = request.params as { jobId: string };
      const asked = readPageQuery(request.query as Record<string, unknown>);
      const choices = await pipeline.answerChoices(session.accountId, jobId);
      // An answer filter the job's questions no longer offer is dropped, not an error page.
      const offered = choices.some((c) =>
        c.options.some((o) => asked.answer === `${c.questionId}:${o.value}`),
      );
      const query = offered ? asked : { ...asked, answer: '' };
      // Each read answers 404 for another account's job; they run side by side.
      const [title, result, channels] = await Promise.all([
        jobTitle(deps, session.accountId, jobId),
        pipeline.list(session.accountId, jobId, toListQuery(query)).catch((error: unknown) => {
          // A stale cursor (another sort's) starts the list again rather than failing the page.
          if (query.cursor)
            return pipeline.list(session.accountId, jobId, toListQuery({ ...query, cursor: '' }));
          throw error;
        }),
        pipeline.channels(session.accountId, jobId),
      ]);
      const filtered = Boolean(query.q || query.stage || query.source || query.cv || query.answer);
      const shown = result.applications.length;
      const number = query.cursor ? Number(query.page || '2') : 1;
      const order = (SORT_LABELS[query.sort || 'newest'] ?? '').toLowerCase();
      const caption = `Page ${number}: ${shown} ${filtered ? 'matching ' : ''}application${shown === 1 ? '' : 's'}, ${order}`;
      const next =
        result.nextCursor &&
        html`<a href="${pageUrl(jobId, query, { cursor: result.nextCursor, page: String(number + 1) })}" rel="next">Next page</a>`;
      const first =
        query.cursor && html`<a href="${pageUrl(jobId, query, { cursor: '', page: '' })}">First page</a>`;
      const empty =
        result.counts.total === 0
          ? html`<p>No applications yet — they appear here as soon as candidates apply.</p>`
          : html`<p role="status">No application matches these filters. <a href="/console/jobs/${jobId}/applications">Show them all</a>.</p>`;
      const body = html`${STYLE}<p><a href="/console/jobs/${jobId}">Back to the job</a></p>
${stageCounts(jobId, query, result.counts)}${filterForm(jobId, query, channels, choices)}
${shown > 0 ? html`${bulkForm(session, jobId, query, result.applications, caption)}<script src="/assets/pipeline.js" defer></script>` : empty}
${(next || first) && html`<nav class="pages" aria-label="Pages">${first}${next}</nav>`}`;
      return renderConsole(reply, session, { title: `Applications: ${title}`, active: 'jobs', flash, body });
    },
  );
}

/** The bulk form's way back: the list's own query, re-read (never another page). */
function backTo(jobId: string, form: { get(name: string): string }): string {
  const params = Object.fromEntries(new URLSearchParams(form.get('back')));
  return pageUrl(jobId, readPageQuery(params));
}

function bulkMove(app: App, deps: WebDeps): void {
  const back = (request: FastifyRequest) =>
    `/console/jobs/${(request.params as { jobId: string }).jobId}/applications`;
  postAction(
    app,
    deps,
    '/console/jobs/:jobId/applications/stage',
    'jobs',
    back,
    async ({ request, session, form }) => {
      const { jobId } = request.params as { jobId: string };
      await jobTitle(deps, session.accountId, jobId);
      const to = backTo(jobId, form);
      const ids = form.all('ids').filter((id) => id.length > 0 && id.length <= 64);
      if (ids.length === 0) return { to, flash: 'Nothing moved: tick the applications to move first.' };
      const stage = form.get('stage');
      const { moved } = await deps.services.pipeline.moveStages(
        session.accountId,
        jobId,
        ids,
        stage,
        actorOf(session),
      );
      const label = isStage(stage) ? STAGE_LABELS[stage] : stage;
      return { to, flash: `${moved} application${moved === 1 ? '' : 's'} moved to ${label}.` };
    },
  );
}

/** A job's applications as a table (search, filters, sort, pages, counts, bulk moves) and one application per page. */
export function registerApplicationsPage(app: App, deps: WebDeps): void {
  listPage(app, deps);
  bulkMove(app, deps);
  pipelineScriptAsset(app);
  registerApplicationPage(app, deps);
}
