import { EVENT_TYPE_NAMES, type EventType, isEventType } from '../../contract/events.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { badRequest } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { buttonForm, csrfField, dataTable, renderConsole, when } from './layout.ts';
import { alreadyShown, secretBox } from './shown-once.ts';
import { actorOf, type Flash, getPage, postAction, type WebDeps } from './web.ts';

type Webhooks = WebDeps['services']['webhooks'];
type WebhookList = Awaited<ReturnType<Webhooks['list']>>['webhooks'];
type Attempts = Awaited<ReturnType<Webhooks['deliveries']>>['deliveries'];

function listBody(session: ConsoleSession, hooks: WebhookList): SafeHtml {
  const rows = hooks.map((hook) => [
    html`<a href="/console/webhooks/${hook.id}">${hook.url}</a>`,
    hook.types.length === EVENT_TYPE_NAMES.length ? 'Every event' : hook.types.join(', '),
    when(hook.createdAt),
    buttonForm(session, `/console/webhooks/${hook.id}/delete`, 'Delete', true, ` ${hook.url}`),
  ]);
  const table = hooks.length
    ? dataTable({
        caption: html`<caption class="muted">Endpoints that receive the account's events.</caption>`,
        columns: ['URL', 'Events', 'Created', 'Delete'],
        rows,
      })
    : html`<p>No webhooks yet — add an endpoint below to be told of changes as they happen.</p>`;
  const checks = EVENT_TYPE_NAMES.map(
    (type) => html`<label class="check"><input type="checkbox" name="types" value="${type}"> ${type}</label>`,
  );
  return html`<h2>Endpoints</h2>${table}
<h2>Add a webhook</h2><form method="post" action="/console/webhooks">${csrfField(session)}
<label for="hook-url">Endpoint URL (https)</label><input type="text" inputmode="url" autocomplete="url" id="hook-url" name="url" required maxlength="2048" placeholder="https://example.com/hooks/careers">
<fieldset><legend>Events (none ticked: every event)</legend>${checks}</fieldset>
<div class="actions"><button type="submit">Add webhook</button></div></form>`;
}

function logBody(session: ConsoleSession, hookId: string, url: string, attempts: Attempts): SafeHtml {
  const rows = attempts.map((a) => [
    when(a.at),
    a.eventId,
    a.attempt,
    a.statusCode === null ? '—' : a.statusCode,
    a.error === null ? 'Delivered' : a.error,
    buttonForm(
      session,
      `/console/webhooks/${hookId}/deliveries/${a.id}/retry`,
      'Retry',
      false,
      ` ${a.eventId}`,
    ),
  ]);
  const table = attempts.length
    ? dataTable({
        caption: html`<caption class="muted">Every attempt, newest first.</caption>`,
        columns: ['When', 'Event', 'Attempt', 'Status', 'Outcome', 'Retry'],
        rows,
      })
    : html`<p>Nothing delivered yet.</p>`;
  return html`<p><a href="/console/webhooks">All webhooks</a></p><h2>Deliveries to ${url}</h2>${table}`;
}

/** Webhooks (admins, beside the API keys): add (the secret shown once), delete, the delivery log, retry. */
export function registerWebhooksPage(app: App, deps: WebDeps): void {
  listPage(app, deps);
  secretPage(app, deps);
  deliveriesPage(app, deps);
  addWebhook(app, deps);
  deleteWebhook(app, deps);
  retryDelivery(app, deps);
}

/** The list of endpoints, with a new endpoint's secret when one was just made. */
async function showList(
  deps: WebDeps,
  reply: Parameters<typeof renderConsole>[0],
  session: ConsoleSession,
  flash: Flash | null,
) {
  const { webhooks: list } = await deps.services.webhooks.list(session.accountId);
  return renderConsole(reply, session, {
    title: 'Webhooks',
    active: 'webhooks',
    flash,
    body: listBody(session, list),
  });
}

/** GET /console/webhooks */
function listPage(app: App, deps: WebDeps): void {
  getPage(app, deps, '/console/webhooks', 'keys', ({ reply, session, flash }) =>
    showList(deps, reply, session, flash),
  );
}

/**
 * GET /console/webhooks/new?shown=: where adding a webhook redirects (POST-redirect-GET); the
 * signing secret held for it is shown once, a reload finds it gone and adds nothing.
 */
function secretPage(app: App, deps: WebDeps): void {
  getPage(app, deps, '/console/webhooks/new', 'keys', async ({ request, reply, session, flash }) => {
    const { shown } = request.query as { shown?: string };
    const held = await deps.services.accountSafety.take(session, 'webhook', String(shown ?? ''));
    reply.header('cache-control', 'no-store');
    const back = { href: '/console/webhooks', label: 'Back to the list' };
    return renderConsole(reply, session, {
      title: 'Your new webhook',
      active: 'webhooks',
      flash,
      body: held
        ? html`${secretBox('new-secret', `Signing secret of ${held.label}`, 'Copy it now: it is shown only this once. Verify each delivery with a Standard Webhooks library.', held.secret)}<p><a href="${back.href}">${back.label}</a></p>`
        : alreadyShown('The signing secret of this webhook', back),
    });
  });
}

/** GET /console/webhooks/{id}: the delivery log */
function deliveriesPage(app: App, deps: WebDeps): void {
  const { webhooks } = deps.services;
  getPage(app, deps, '/console/webhooks/:webhookId', 'keys', async ({ request, reply, session, flash }) => {
    const { webhookId } = request.params as { webhookId: string };
    const hook = await webhooks.get(session.accountId, webhookId);
    const { deliveries } = await webhooks.deliveries(session.accountId, webhookId);
    return renderConsole(reply, session, {
      title: 'Webhook deliveries',
      active: 'webhooks',
      flash,
      body: logBody(session, hook.id, hook.url, deliveries),
    });
  });
}

/** POST /console/webhooks: adds, then redirects to the page that shows the secret once */
function addWebhook(app: App, deps: WebDeps): void {
  const { webhooks, audit } = deps.services;
  postAction(
    app,
    deps,
    '/console/webhooks',
    'keys',
    () => '/console/webhooks',
    async ({ session, form }) => {
      const url = form.get('url').trim();
      if (url === '') throw badRequest('Enter the endpoint URL.', { field: 'url' });
      const types = form.all('types').slice(0, EVENT_TYPE_NAMES.length * 2);
      const unknown = types.find((type) => !isEventType(type));
      if (unknown !== undefined) throw badRequest(`"${unknown}" is not an event type.`, { field: 'types' });
      const chosen = [...new Set(types)] as EventType[];
      const created = await webhooks.create(
        session.accountId,
        { url, ...(chosen.length > 0 ? { types: chosen } : {}) },
        audit.sealed(session.accountId, actorOf(session), (result) => ({
          action: 'webhook.created',
          target: result.webhook.id,
          detail: { url: result.webhook.url, types: result.webhook.types },
        })),
      );
      const { url: added } = created.webhook;
      const shown = await deps.services.accountSafety.hold(session, 'webhook', added, created.secret);
      return { to: `/console/webhooks/new?shown=${shown}`, flash: `Webhook to ${added} added.` };
    },
  );
}

/** POST /console/webhooks/{id}/delete */
function deleteWebhook(app: App, deps: WebDeps): void {
  const { webhooks, audit } = deps.services;
  postAction(
    app,
    deps,
    '/console/webhooks/:webhookId/delete',
    'keys',
    () => '/console/webhooks',
    async ({ request, session }) => {
      const { webhookId } = request.params as { webhookId: string };
      await webhooks.remove(
        session.accountId,
        webhookId,
        audit.sealed(session.accountId, actorOf(session), () => ({
          action: 'webhook.deleted',
          target: webhookId,
        })),
      );
      return { to: '/console/webhooks', flash: 'Webhook deleted: nothing more is sent to it.' };
    },
  );
}

/** POST /console/webhooks/{id}/deliveries/{attemptId}/retry */
function retryDelivery(app: App, deps: WebDeps): void {
  const { webhooks } = deps.services;
  postAction(
    app,
    deps,
    '/console/webhooks/:webhookId/deliveries/:attemptId/retry',
    'keys',
    (request) => `/console/webhooks/${(request.params as { webhookId: string }).webhookId}`,
    async ({ request, session }) => {
      const { webhookId, attemptId } = request.params as { webhookId: string; attemptId: string };
      await webhooks.retry(session.accountId, webhookId, attemptId);
      return { to: `/console/webhooks/${webhookId}`, flash: 'The event will be delivered again now.' };
    },
  );
}
