import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import type { Route } from '../../types.ts';

export const listMail: Route = (app, { services: { mail } }) => {
  app.get(
    '/console/v1/mail',
    {
      config: { console: true },
      schema: {
        hide: true,
        querystring: Type.Object(
          { to: Type.Optional(Text({ minLength: 1, maxLength: 254 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => ({
      messages: (await mail.list(request.query.to ?? null)).map((row) => ({
        id: row.id,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        locale: row.locale,
        sentAt: row.sent_at.toISOString(),
      })),
    }),
  );
};

export const listTasks: Route = (app, { services: { tasks } }) => {
  app.get(
    '/console/v1/tasks',
    {
      config: { console: true },
      schema: {
        hide: true,
        querystring: Type.Object(
          {
            state: Type.Optional(
              Type.Unsafe<'queued' | 'running' | 'done' | 'dead'>({
                type: 'string',
                enum: ['queued', 'running', 'done', 'dead'],
              }),
            ),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => tasks.list(request.query.state ?? 'dead'),
  );
};

export const retryTask: Route = (app, { services: { tasks } }) => {
  app.post(
    '/console/v1/tasks/:taskId/retry',
    {
      config: { console: true },
      schema: { hide: true, params: Type.Object({ taskId: Text({ minLength: 1, maxLength: 64 }) }) },
    },
    async (request) => {
      await tasks.retry(request.params.taskId);
      return { retried: true };
    },
  );
};
