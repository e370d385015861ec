import { Type } from 'typebox';
import { LocaleSchema } from './vocabulary.ts';

export const SCREENING_MESSAGE_MAX = 2_000;

export const ScreeningRequestBody = Type.Object(
  {
    templateId: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "One of the account's active screening templates.",
    }),
    completeBy: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Deadline; default seven days from now; at most 90 days.',
      }),
    ),
    message: Type.Optional(
      Type.String({
        maxLength: SCREENING_MESSAGE_MAX,
        description: 'A note the candidate reads in the invitation.',
      }),
    ),
    language: Type.Optional(LocaleSchema),
  },
  { additionalProperties: false },
);

export const ScreeningParams = Type.Object({
  jobId: Type.String({ minLength: 1, maxLength: 64 }),
  candidateId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ScreeningTriggeredBody = Type.Object({
  screening: Type.Object({
    screeningId: Type.String(),
    jobId: Type.String(),
    candidateId: Type.String(),
    templateId: Type.String(),
    status: Type.String({
      description:
        '`invited`; later `completed`, `expired` (after completeBy) or `cancelled` (the role closed).',
    }),
    deliveryPath: Type.String({
      description: '`virtual_cv` (an interview request on a claimed virtual CV) or `email`.',
    }),
    completeBy: Type.String({ format: 'date-time' }),
    requestedAt: Type.String({ format: 'date-time' }),
  }),
  billing: Type.String({ description: '`included` or `overage`.' }),
  priceCents: Type.Integer(),
  currency: Type.String({ description: '`AUD` or `USD`.' }),
});

const Currency = Type.Unsafe<'AUD' | 'USD'>({ type: 'string', enum: ['AUD', 'USD'] });
const Price = Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()]);

export const TemplateCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    priceCents: Price,
    currency: Currency,
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const TemplatePatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    priceCents: Type.Optional(Price),
    currency: Type.Optional(Currency),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
