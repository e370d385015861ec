import { AccountParams } from '../../../contract/console.ts';
import { DeliveryParams, WebhookCreate, WebhookParams } from '../../../contract/events.ts';
import type { Route } from '../../types.ts';

/** POST /console/v1/accounts/{accountId}/webhooks → 201 { webhook, secret }: the secret, once. */
export const createWebhook: Route = (app, { services: { webhooks } }) => {
  app.post(
    '/console/v1/accounts/:accountId/webhooks',
    { config: { console: true }, schema: { hide: true, params: AccountParams, body: WebhookCreate } },
    async (request, reply) => {
      const created = await webhooks.create(request.params.accountId, request.body);
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(created);
    },
  );
};

export const listWebhooks: Route = (app, { services: { webhooks } }) => {
  app.get(
    '/console/v1/accounts/:accountId/webhooks',
    { config: { console: true }, schema: { hide: true, params: AccountParams } },
    async (request) => webhooks.list(request.params.accountId),
  );
};

export const deleteWebhook: Route = (app, { services: { webhooks } }) => {
  app.delete(
    '/console/v1/accounts/:accountId/webhooks/:webhookId',
    { config: { console: true }, schema: { hide: true, params: WebhookParams } },
    async (request, reply) => {
      await webhooks.remove(request.params.accountId, request.params.webhookId);
      return reply.code(204).send();
    },
  );
};

export const listDeliveries: Route = (app, { services: { webhooks } }) => {
  app.get(
    '/console/v1/accounts/:accountId/webhooks/:webhookId/deliveries',
    { config: { console: true }, schema: { hide: true, params: WebhookParams } },
    async (request) => webhooks.deliveries(request.params.accountId, request.params.webhookId),
  );
};

export const retryDelivery: Route = (app, { services: { webhooks } }) => {
  app.post(
    '/console/v1/accounts/:accountId/webhooks/:webhookId/deliveries/:deliveryId/retry',
    { config: { console: true }, schema: { hide: true, params: DeliveryParams } },
    async (request, reply) => {
      const { accountId, webhookId, deliveryId } = request.params;
      return reply.code(202).send(await webhooks.retry(accountId, webhookId, deliveryId));
    },
  );
};
