import type { Account } from '../../contract/console.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import type { ErasureReceipt } from '../../domain/privacy/privacy-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { csrfField, renderConsole, when } from './layout.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

/**
 * Data protection for admins (extensions.md §6): how long the account keeps candidates' data, an
 * access request answered as a download, an erasure request with its receipt, and the receipts.
 * Addresses are posted, never put in a URL (they would reach access logs and browser history).
 */

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function receiptSummary(r: ErasureReceipt): string {
  return [
    count(r.applications, 'application', 'applications'),
    count(r.candidates, 'imported candidate', 'imported candidates'),
    count(r.files, 'file', 'files'),
    count(r.matches, 'match', 'matches'),
  ].join(', ');
}

function retentionCard(session: ConsoleSession, account: Account): SafeHtml {
  const { applicationDays, candidateDays } = account.retention;
  return html`<section class="card" aria-labelledby="retention-h"><h2 id="retention-h">How long candidates’ data is kept</h2>
<p>After this many days, a candidate’s name, contact details, answers, consent details, CV file and virtual CV are erased; the application stays as a count, with its dates and stage. A CV the candidate claimed is theirs and stays with them.</p>
<form method="post" action="/console/privacy/retention">${csrfField(session)}
<label for="applicationDays">Applications: days after the role closes or expires</label>
<input type="number" id="applicationDays" name="applicationDays" min="0" max="1095" step="1" required value="${String(applicationDays)}" aria-describedby="application-days-hint">
<p class="hint" id="application-days-hint">0 to 1,095. Counted from the later of the application and the role’s close; never while the role is live. 0 erases at the next sweep after the close.</p>
<label for="candidateDays">Imported candidates: days after the import</label>
<input type="number" id="candidateDays" name="candidateDays" min="0" max="1095" step="1" required value="${String(candidateDays)}" aria-describedby="candidate-days-hint">
<p class="hint" id="candidate-days-hint">0 to 1,095. An import made without telling the person (no claim email) goes after 30 days, unless you record that you told them.</p>
<div class="actions"><button type="submit">Save how long data is kept</button></div></form></section>`;
}

function requestsCard(session: ConsoleSession): SafeHtml {
  return html`<section class="card" aria-labelledby="access-h"><h2 id="access-h">A person asks what you hold about them</h2>
<p>Download one file with everything this account holds about an email address: applications with their answers, notes and consent, imports, virtual CVs, screenings and matches.</p>
<form method="post" action="/console/privacy/export">${csrfField(session)}
<label for="export-email">Their email address</label><input type="email" id="export-email" name="email" required maxlength="254" autocomplete="off">
<div class="actions"><button type="submit">Download their data</button></div></form></section>
<section class="card" aria-labelledby="erase-h"><h2 id="erase-h">A person asks you to erase their data</h2>
<p>Erases everything this account holds about the address at once, and keeps a receipt without the address. Later imports of the address are refused. This cannot be undone.</p>
<form method="post" action="/console/privacy/erase">${csrfField(session)}
<label for="erase-email">Their email address</label><input type="email" id="erase-email" name="email" required maxlength="254" autocomplete="off">
<label class="check"><input type="checkbox" name="confirm" value="yes" required> I understand this erases their data for good</label>
<div class="actions"><button type="submit" class="danger">Erase their data</button></div></form></section>`;
}

function receiptsCard(receipts: ErasureReceipt[]): SafeHtml {
  const rows = receipts.map(
    (r) =>
      html`<tr><th scope="row">${when(r.erasedAt)}</th><td>${receiptSummary(r)}</td><td><code>${r.id}</code></td></tr>`,
  );
  const table =
    receipts.length === 0
      ? html`<p class="muted">No erasure requests yet.</p>`
      : html`<style>.receipts td code{word-break:break-all}.receipts caption{text-align:left;color:#555}</style><div class="scroll" tabindex="0" role="region" aria-labelledby="receipts-h"><table class="receipts"><caption>Newest first</caption><thead><tr><th scope="col">Erased</th><th scope="col">What</th><th scope="col">Receipt</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  return html`<section class="card" aria-labelledby="receipts-h"><h2 id="receipts-h">Erasure receipts</h2><p>Proof of what was erased and when. They hold no address.</p>${table}</section>`;
}

const days = (value: string): number | null => (/^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : null);

export function registerPrivacyPage(app: App, deps: WebDeps): void {
  const { accounts, audit, privacy } = deps.services;

  getPage(app, deps, '/console/privacy', 'settings', async ({ reply, session, flash }) => {
    const account = await accounts.get(session.accountId);
    const { receipts } = await privacy.receipts(session.accountId, { limit: 50 });
    return renderConsole(reply, session, {
      title: 'Data protection',
      active: 'privacy',
      flash,
      body: html`${retentionCard(session, account)}${requestsCard(session)}${receiptsCard(receipts)}`,
    });
  });

  postAction(
    app,
    deps,
    '/console/privacy/retention',
    'settings',
    () => '/console/privacy',
    async ({ session, form }) => {
      const applicationDays = days(form.get('applicationDays'));
      const candidateDays = days(form.get('candidateDays'));
      if (
        applicationDays === null ||
        candidateDays === null ||
        applicationDays > 1095 ||
        candidateDays > 1095
      ) {
        return { to: '/console/privacy', flash: 'Days must be whole numbers from 0 to 1,095.' };
      }
      const actor = actorOf(session);
      const updated = await accounts.update(
        session.accountId,
        { retention: { applicationDays, candidateDays } },
        audit.sealed(session.accountId, actor, ({ before, after }) =>
          before.retention.applicationDays === after.retention.applicationDays &&
          before.retention.candidateDays === after.retention.candidateDays
            ? null
            : {
                action: 'account.retention_changed',
                detail: { before: before.retention, after: after.retention },
              },
        ),
      );
      return {
        to: '/console/privacy',
        flash: `Saved: applications are kept ${updated.retention.applicationDays} days after their role closes, imported candidates ${updated.retention.candidateDays} days.`,
      };
    },
  );

  // The download answers the post itself (no redirect): the address never reaches a URL.
  postAction(
    app,
    deps,
    '/console/privacy/export',
    'settings',
    () => '/console/privacy',
    async ({ reply, session, form }) => {
      const document = await privacy.exportAddress(
        session.accountId,
        form.get('email'),
        audit.sealed(session.accountId, actorOf(session), (out: { addressHash: string }) => ({
          action: 'people.exported',
          detail: { addressHash: out.addressHash },
        })),
      );
      const day = document.exportedAt.slice(0, 10);
      await reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="data-export-${day}.json"`)
        .header('cache-control', 'no-store')
        .send(`${JSON.stringify(document, null, 2)}\n`);
      return undefined;
    },
  );

  postAction(
    app,
    deps,
    '/console/privacy/erase',
    'settings',
    () => '/console/privacy',
    async ({ session, form }) => {
      if (form.get('confirm') !== 'yes') {
        return { to: '/console/privacy', flash: 'Tick the box to confirm the erasure.' };
      }
      const receipt = await privacy.eraseAddress(
        session.accountId,
        form.get('email'),
        audit.sealed(session.accountId, actorOf(session), (out: ErasureReceipt) => ({
          action: 'people.erased',
          target: out.id,
          detail: { applications: out.applications, candidates: out.candidates, files: out.files },
        })),
      );
      return { to: '/console/privacy', flash: `Erased: ${receiptSummary(receipt)}. Receipt ${receipt.id}.` };
    },
  );
}
