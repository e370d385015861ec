import type { AuditEntry } from '../../contract/console-users.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { dataTable, renderConsole, when } from './layout.ts';
import { getPage, type WebDeps } from './web.ts';
import { humanise, jobFieldWords, ROLE_WORDS, STAGED_WORDS, stageWords } from './words.ts';

/** What each audited action reads as. */
const ACTIONS: Record<string, string> = {
  'user.invited': 'invited a user',
  'user.joined': 'joined (set a password)',
  'user.role_changed': "changed a user's role",
  'user.removed': 'removed a user',
  'user.password_reset': 'reset their password by the mailed link',
  'user.totp_enabled': 'turned two-step sign-in on',
  'user.totp_disabled': 'turned two-step sign-in off',
  'user.totp_reset': "reset a user's two-step sign-in",
  'account.totp_required': 'required two-step sign-in for every user',
  'account.totp_optional': 'made two-step sign-in optional',
  'key.minted': 'minted an API key',
  'key.revoked': 'revoked an API key',
  'test_data.deleted': 'deleted all test data',
  'account.address_changed': 'changed the company address',
  'account.addendum_accepted': 'accepted the data-processing addendum',
  'account.cap_changed': 'changed the monthly overage cap',
  'account.updated': 'changed account settings',
  'job.created': 'created a job',
  'job.edited': 'edited a job',
  'job.published': 'published a job',
  'job.promoted': 'made waiting changes live',
  'job.closed': 'closed a job',
  'job.managed': 'asked us to manage a job',
  'job.unmanaged': 'stopped managing a job',
  'screening.invited': 'invited a candidate to a screening',
  'template.created': 'created a screening template',
  'template.updated': 'changed a screening template',
  'application.stage_changed': "moved an application's stage",
  'application.note_added': 'added a note to an application',
  'application.cv_downloaded': "downloaded a candidate's CV",
  'account.retention_changed': 'changed how long candidates’ data is kept',
  'people.exported': 'downloaded everything held about a person (access request)',
  'people.erased': 'erased everything held about a person (erasure request)',
  'candidate.informed': 'recorded that an imported candidate was told',
};

const money = (cents: unknown, currency?: unknown) =>
  typeof cents === 'number'
    ? `${(cents / 100).toFixed(2)}${typeof currency === 'string' ? ` ${currency}` : ''}`
    : 'no cap';
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const list = (value: unknown, words: (name: string) => string = humanise) =>
  Array.isArray(value) ? value.map((v) => words(String(v))).join(', ') : '';

/** What the change was, in words (the detail the trail kept, never read as raw JSON). */
function detail(entry: AuditEntry): string {
  const d = entry.detail;
  switch (entry.action) {
    case 'job.edited':
      return `Changed ${list(d.fields, jobFieldWords) || 'nothing'}${d.staged ? `; ${STAGED_WORDS.waiting.toLowerCase()}` : ''}`;
    case 'job.published':
      return typeof d.expiresAt === 'string' ? `Open until ${d.expiresAt.slice(0, 10)}` : 'Open until closed';
    case 'account.address_changed':
      return `From “${text(d.before) || 'none'}” to “${text(d.after)}”`;
    case 'account.cap_changed':
      return `From ${money(d.beforeCents)} to ${money(d.afterCents)}`;
    case 'user.role_changed':
      return `From ${ROLE_WORDS[text(d.before)] ?? text(d.before)} to ${ROLE_WORDS[text(d.after)] ?? text(d.after)}`;
    case 'user.invited':
      return `As ${ROLE_WORDS[text(d.role)] ?? text(d.role)}`;
    case 'key.minted':
      return `${d.mode === 'test' ? 'Test key. ' : ''}Can: ${list(d.scopes, (s) => s) || 'nothing'}`;
    case 'test_data.deleted':
      return `${d.jobs} jobs, ${d.applications} applications, ${d.candidates} imports`;
    case 'webhook.created':
      return `Sends: ${list(d.types, (s) => s) || 'every event'}`;
    case 'screening.invited':
      return d.billing === 'overage' ? `Charged ${money(d.priceCents, d.currency)}` : 'Included in the plan';
    case 'template.created':
      return `Price ${money(d.priceCents, d.currency)}`;
    case 'template.updated':
      return d.active === false ? 'Turned off' : d.active === true ? 'Turned on' : '';
    case 'job.created':
    case 'user.joined':
    case 'user.removed':
    case 'key.revoked':
    case 'webhook.deleted':
      return '';
  }
  if (typeof d.stage === 'string') return `To ${stageWords(d.stage)}`;
  // An action this page has no sentence for yet: its facts in words, ids left out.
  return Object.entries(d)
    .filter(([key, value]) => !/id$/i.test(key) && (typeof value === 'string' || typeof value === 'number'))
    .map(([key, value]) => `${humanise(key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase())}: ${value}`)
    .join('; ');
}

/** What the change was made on: a job (its title, linked), a person, a key, a webhook… never a bare id. */
function subject(entry: AuditEntry, titles: Map<string, string>): SafeHtml | string {
  const d = entry.detail;
  const jobId = entry.action.startsWith('job.') ? entry.target : typeof d.jobId === 'string' ? d.jobId : null;
  const job = (id: string) => {
    const title = titles.get(id);
    return title === undefined
      ? 'a job since removed'
      : html`<a href="/console/jobs/${id}">${title || 'Untitled job'}</a>`;
  };
  if (entry.action.startsWith('job.') && jobId) return job(jobId);
  if (entry.action.startsWith('user.')) return text(d.email) || 'a user';
  if (entry.action.startsWith('key.')) return text(d.name) ? `API key “${text(d.name)}”` : 'an API key';
  if (entry.action.startsWith('webhook.')) return text(d.url) || 'a webhook';
  if (entry.action.startsWith('template.'))
    return text(d.name) ? `Screening “${text(d.name)}”` : 'a screening template';
  if (entry.action.startsWith('account.')) return 'The account';
  if (entry.action.startsWith('screening.'))
    return jobId ? html`A candidate of ${job(jobId)}` : 'A candidate';
  if (entry.action.startsWith('application.') || entry.action.startsWith('cv.'))
    return jobId
      ? html`<a href="/console/jobs/${jobId}/applications">An application to ${titles.get(jobId) ?? 'a job'}</a>`
      : 'An application';
  return jobId ? job(jobId) : '';
}

/** Activity (admins): the audit trail, newest first. */
export function registerActivityPage(app: App, deps: WebDeps): void {
  const { audit } = deps.services;
  getPage(app, deps, '/console/activity', 'activity', async ({ request, reply, session, flash }) => {
    const cursor = (request.query as { cursor?: unknown }).cursor;
    const [{ entries, nextCursor }, jobs] = await Promise.all([
      audit.list(session.accountId, { limit: 100, ...(typeof cursor === 'string' ? { cursor } : {}) }),
      deps.services.jobs.listForConsole(session.accountId),
    ]);
    const titles = new Map(jobs.map((job) => [job.id, job.title]));
    const rows = entries.map((entry) => [
      when(entry.at),
      entry.actor.kind === 'operator' ? 'Operator' : (entry.actor.email ?? ''),
      ACTIONS[entry.action] ?? humanise(entry.action.replace('.', ' ')).toLowerCase(),
      subject(entry, titles),
      detail(entry),
    ]);
    const columns = ['When', 'Who', 'What', 'On what', 'Detail'];
    const body = entries.length
      ? html`${dataTable({ columns, rows })}${nextCursor && html`<p><a href="/console/activity?cursor=${nextCursor}">Older activity</a></p>`}`
      : html`<p>No activity yet — changes made in the console appear here.</p>`;
    return renderConsole(reply, session, { title: 'Activity', active: 'activity', flash, body });
  });
}
