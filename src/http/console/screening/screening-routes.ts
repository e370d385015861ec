import { Type } from 'typebox';
import { TemplateCreate, TemplatePatch } from '../../../contract/screening.ts';
import { Text } from '../../../contract/text.ts';
import type { Route } from '../../types.ts';

const Id = Text({ minLength: 1, maxLength: 64 });
const base = '/console/v1/accounts/:accountId';

export const createTemplate: Route = (app, { services: { screening } }) => {
  app.post(
    `${base}/screening-templates`,
    {
      config: { console: true },
      schema: { hide: true, params: Type.Object({ accountId: Id }), body: TemplateCreate },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ template: await screening.createTemplate(request.params.accountId, request.body) }),
  );
};

export const updateTemplate: Route = (app, { services: { screening } }) => {
  app.patch(
    `${base}/screening-templates/:templateId`,
    {
      config: { console: true },
      schema: { hide: true, params: Type.Object({ accountId: Id, templateId: Id }), body: TemplatePatch },
    },
    async (request) => ({
      template: await screening.updateTemplate(
        request.params.accountId,
        request.params.templateId,
        request.body,
      ),
    }),
  );
};

export const completeScreening: Route = (app, { services: { screening } }) => {
  app.post(
    `${base}/screenings/:screeningId/complete`,
    {
      config: { console: true },
      schema: { hide: true, params: Type.Object({ accountId: Id, screeningId: Id }) },
    },
    async (request) => ({
      screening: await screening.complete(request.params.accountId, request.params.screeningId),
    }),
  );
};

export const billing: Route = (app, { services: { screening } }) => {
  app.get(
    `${base}/billing`,
    {
      config: { console: true },
      schema: {
        hide: true,
        params: Type.Object({ accountId: Id }),
        querystring: Type.Object({ month: Text({ maxLength: 7 }) }, { additionalProperties: false }),
      },
    },
    async (request) => screening.billing(request.params.accountId, request.query.month),
  );
};
