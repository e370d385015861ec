import { type Static, Type } from 'typebox';
import { Text } from './text.ts';
import { enumOf, LocaleSchema } from './vocabulary.ts';

export const CURRENCIES = ['AUD', 'USD'] as const;
const Currency = enumOf(CURRENCIES);

export const SCREENING_MESSAGE_MAX = 2_000;

export const ScreeningRequestBody = Type.Object(
  {
    templateId: Text({
      minLength: 1,
      maxLength: 64,
      description: "One of the account's active screening templates.",
    }),
    completeBy: Type.Optional(
      Text({
        format: 'date-time',
        description: 'Deadline; default seven days from now; at most 90 days.',
      }),
    ),
    message: Type.Optional(
      Text({
        maxLength: SCREENING_MESSAGE_MAX,
        description: 'A note the candidate reads in the invitation.',
      }),
    ),
    language: Type.Optional(LocaleSchema),
  },
  { additionalProperties: false },
);
export type ScreeningRequest = Static<typeof ScreeningRequestBody>;

export const ScreeningParams = Type.Object({
  jobId: Text({ minLength: 1, maxLength: 64 }),
  candidateId: Text({ minLength: 1, maxLength: 64 }),
});

export const Screening = Type.Object({
  screeningId: Type.String(),
  jobId: Type.String(),
  candidateId: Type.String(),
  templateId: Type.String(),
  status: enumOf(
    ['invited', 'completed', 'expired', 'cancelled'] as const,
    '`invited`; later `completed`, `expired` (after completeBy) or `cancelled` (the role closed).',
  ),
  deliveryPath: enumOf(
    ['virtual_cv', 'email'] as const,
    '`virtual_cv` (an interview request on a claimed virtual CV) or `email`.',
  ),
  completeBy: Type.String({ format: 'date-time' }),
  requestedAt: Type.String({ format: 'date-time' }),
});
export type Screening = Static<typeof Screening>;

export const ScreeningTriggeredBody = Type.Object({
  screening: Screening,
  billing: enumOf(
    ['included', 'overage'] as const,
    "`included` (one of the managed ad's included screenings) or `overage` (billed at priceCents if it completes).",
  ),
  priceCents: Type.Integer({ description: "The template's cost per screening, locked at the call." }),
  currency: Currency,
});
export type ScreeningTriggered = Static<typeof ScreeningTriggeredBody>;
const Price = Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()]);

export const TemplateCreate = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 200 }),
    priceCents: Price,
    currency: Currency,
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type TemplateCreate = Static<typeof TemplateCreate>;

export const TemplatePatch = Type.Object(
  {
    name: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
    priceCents: Type.Optional(Price),
    currency: Type.Optional(Currency),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type TemplatePatch = Static<typeof TemplatePatch>;

/** A screening template as the console shows it; `priceCents` null means the price cannot be read. */
export const ScreeningTemplate = Type.Object({
  id: Type.String(),
  name: Type.String(),
  priceCents: Price,
  currency: Currency,
  active: Type.Boolean(),
});
export type ScreeningTemplate = Static<typeof ScreeningTemplate>;
