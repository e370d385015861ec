import type { AuditEntry } from '../../contract/console-users.ts';
import { html } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { dataTable, renderConsole, when } from './layout.ts';
import { getPage, type WebDeps } from './web.ts';

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
  'account.address_changed': 'changed the company address',
  'account.addendum_accepted': 'accepted the data-processing addendum',
  'account.cap_changed': 'changed the monthly overage cap',
  'account.updated': 'changed account settings',
  'job.created': 'created a job',
  'job.edited': 'edited a job',
  'job.published': 'published a job',
  'job.promoted': 'promoted staged words',
  'job.closed': 'closed a job',
  'job.managed': 'made a job managed',
  'job.unmanaged': 'stopped managing a job',
  'screening.invited': 'invited a candidate to a screening',
  'template.created': 'created a screening template',
  'template.updated': 'changed a screening template',
  'application.stage_changed': "moved an application's stage",
  'application.note_added': 'added a note to an application',
  'application.cv_downloaded': "downloaded a candidate's CV",
};

function detail(entry: AuditEntry): string {
  const parts = Object.entries(entry.detail).map(
    ([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  return parts.join('; ');
}

/** Activity (admins): the audit trail, newest first. */
export function registerActivityPage(app: App, deps: WebDeps): void {
  const { audit } = deps.services;
  getPage(app, deps, '/console/activity', 'activity', async ({ request, reply, session, flash }) => {
    const cursor = (request.query as { cursor?: unknown }).cursor;
    const { entries, nextCursor } = await audit.list(session.accountId, {
      limit: 100,
      ...(typeof cursor === 'string' ? { cursor } : {}),
    });
    const rows = entries.map((entry) => [
      when(entry.at),
      entry.actor.kind === 'operator' ? 'Operator' : (entry.actor.email ?? ''),
      ACTIONS[entry.action] ?? entry.action,
      entry.target ?? '',
      detail(entry),
    ]);
    const columns = ['When', 'Who', 'What', 'On', 'Detail'];
    const body = entries.length
      ? html`${dataTable({ columns, rows })}${nextCursor && html`<p><a href="/console/activity?cursor=${nextCursor}">Older activity</a></p>`}`
      : html`<p>No activity yet — changes made in the console appear here.</p>`;
    return renderConsole(reply, session, { title: 'Activity', active: 'activity', flash, body });
  });
}
