import { CURRENCIES } from '../../contract/screening.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { badRequest } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { buttonForm, csrfField, dataTable, money, renderConsole, when } from './layout.ts';
import { type action, actorOf, getPage, postAction, type WebDeps } from './web.ts';

/** Whole currency units with up to two decimals, as cents; null when it is not such a number. */
function cents(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

type BillingReport = Awaited<ReturnType<WebDeps['services']['screening']['billing']>>;
type Templates = Awaited<ReturnType<WebDeps['services']['screening']['listTemplates']>>;
type Handler = Parameters<typeof action>[2];

/** Billing (billing admins and admins): month, spend, cap, each screening; the cap and the templates. */
export function registerBillingPage(app: App, deps: WebDeps): void {
  showBilling(app, deps);
  saveCap(app, deps);
  createTemplate(app, deps);
  switchTemplate(app, deps);
}

/** A billing form action: billing admins and admins, back to the billing page. */
function billingAction(app: App, deps: WebDeps, url: string, handler: Handler): void {
  postAction(app, deps, url, 'billing', () => '/console/billing', handler);
}

/** GET /console/billing?month=YYYY-MM */
function showBilling(app: App, deps: WebDeps): void {
  const { screening } = deps.services;
  getPage(app, deps, '/console/billing', 'billing', async ({ request, reply, session, flash }) => {
    const asked = (request.query as { month?: unknown }).month;
    const month =
      typeof asked === 'string' && /^\d{4}-\d\d$/.test(asked)
        ? asked
        : deps.clock.now().toISOString().slice(0, 7);
    const [report, templates] = await Promise.all([
      screening.billing(session.accountId, month),
      screening.listTemplates(session.accountId),
    ]);
    const body = billingView(session, month, report, templates);
    return renderConsole(reply, session, { title: 'Billing', active: 'billing', flash, body });
  });
}

function saveCap(app: App, deps: WebDeps): void {
  const { accounts, audit } = deps.services;
  billingAction(app, deps, '/console/billing/cap', async ({ session, form }) => {
    const cap = cents(form.get('cap'));
    if (cap === null) throw badRequest('Enter the cap as an amount, for example 750.00.', { field: 'cap' });
    await accounts.update(
      session.accountId,
      { limits: { monthlyOverageCapCents: cap } },
      audit.sealed(session.accountId, actorOf(session), ({ before, after }) =>
        before.limits.monthlyOverageCapCents === after.limits.monthlyOverageCapCents
          ? null
          : {
              action: 'account.cap_changed',
              detail: {
                beforeCents: before.limits.monthlyOverageCapCents,
                afterCents: after.limits.monthlyOverageCapCents,
              },
            },
      ),
    );
    return { to: '/console/billing', flash: `Monthly overage cap saved: ${(cap / 100).toFixed(2)}.` };
  });
}

function createTemplate(app: App, deps: WebDeps): void {
  const { screening, audit } = deps.services;
  billingAction(app, deps, '/console/billing/templates', async ({ session, form }) => {
    const price = cents(form.get('price'));
    const currency = form.get('currency');
    const name = form.get('name').trim();
    if (name === '' || name.length > 200)
      throw badRequest('Name the template (up to 200 characters).', { field: 'name' });
    if (price === null)
      throw badRequest('Enter the price as an amount, for example 49.00.', { field: 'price' });
    if (!(CURRENCIES as readonly string[]).includes(currency))
      throw badRequest('Choose AUD or USD.', { field: 'currency' });
    await screening.createTemplate(
      session.accountId,
      { name, priceCents: price, currency: currency as (typeof CURRENCIES)[number] },
      audit.sealed(session.accountId, actorOf(session), (template) => ({
        action: 'template.created',
        target: template.id,
        detail: { name, priceCents: price, currency },
      })),
    );
    return { to: '/console/billing', flash: `Template ${name} created.` };
  });
}

/** POST …/templates/{id}/activate and …/deactivate. */
function switchTemplate(app: App, deps: WebDeps): void {
  const { screening, audit } = deps.services;
  for (const [verb, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    billingAction(
      app,
      deps,
      `/console/billing/templates/:templateId/${verb}`,
      async ({ request, session }) => {
        const { templateId } = request.params as { templateId: string };
        const template = await screening.updateTemplate(
          session.accountId,
          templateId.slice(0, 64),
          { active },
          audit.sealed(session.accountId, actorOf(session), (updated) => ({
            action: 'template.updated',
            target: updated.id,
            detail: { name: updated.name, active },
          })),
        );
        return {
          to: '/console/billing',
          flash: `Template ${template.name} ${active ? 'activated' : 'deactivated'}.`,
        };
      },
    );
  }
}

/** The billing page's body: the month's facts and screenings, the cap form, the templates. */
function billingView(
  session: ConsoleSession,
  month: string,
  report: BillingReport,
  templates: Templates,
): SafeHtml {
  const rows = report.screenings.map((s) => [
    s.screeningId,
    s.jobId,
    s.status,
    s.billing,
    money(s.priceCents, s.currency),
    s.billed ? 'Yes' : 'No',
    when(s.requestedAt),
  ]);
  const columns = ['Screening', 'Job', 'Status', 'Billing', 'Price', 'Billed', 'Requested'];
  const list = report.screenings.length
    ? dataTable({ columns, rows })
    : html`<p>No screenings this month — recruiters invite candidates from the Screening page.</p>`;
  const templateRows = templates.map(
    (t) =>
      html`<li>${t.name} — ${money(t.priceCents, t.currency)}${!t.active && ' (inactive)'} ${buttonForm(session, `/console/billing/templates/${t.id}/${t.active ? 'deactivate' : 'activate'}`, t.active ? 'Deactivate' : 'Activate', t.active, t.name)}</li>`,
  );
  return html`<form method="get" action="/console/billing"><label for="month">Month</label><input type="month" id="month" name="month" value="${month}"> <button type="submit">Show month</button></form>
<dl class="facts"><dt>Month</dt><dd>${report.month}</dd><dt>Overage spend</dt><dd id="spend">${money(report.spendCents, report.currency ?? 'USD')}</dd><dt>Monthly overage cap</dt><dd id="cap">${money(report.capCents, report.currency ?? 'USD')}</dd><dt>Screenings</dt><dd>${report.screenings.length}</dd></dl>
<h2>Screenings</h2>${list}
<h2>Overage cap</h2><form method="post" action="/console/billing/cap">${csrfField(session)}
<label for="cap-input">Monthly overage cap</label><input type="text" inputmode="decimal" id="cap-input" name="cap" required value="${(report.capCents / 100).toFixed(2)}" aria-describedby="cap-hint">
<p class="hint" id="cap-hint">In the account's currency, for example 750.00. Screenings that would pass it are refused.</p>
<div class="actions"><button type="submit">Save cap</button></div></form>
<h2>Screening templates</h2>${templateRows.length > 0 ? html`<ul>${templateRows}</ul>` : html`<p>No templates yet — create one below so recruiters can invite candidates.</p>`}
<form method="post" action="/console/billing/templates">${csrfField(session)}
<label for="tpl-name">Template name</label><input type="text" id="tpl-name" name="name" required maxlength="200">
<label for="tpl-price">Price per screening</label><input type="text" inputmode="decimal" id="tpl-price" name="price" required>
<label for="tpl-currency">Currency</label><select id="tpl-currency" name="currency">${CURRENCIES.map((c) => html`<option>${c}</option>`)}</select>
<div class="actions"><button type="submit">Create template</button></div></form>`;
}
