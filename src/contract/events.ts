import { type Static, type TSchema, Type } from 'typebox';
import { APPLICATION_STATUSES, CV_STATUSES } from './intake.ts';
import { APPLICATION_STAGES } from './pipeline.ts';
import { Text } from './text.ts';
import { enumOf, MODES, type Scope } from './vocabulary.ts';

/**
 * Events (extensions.md §3): what changed, by id and status only, never a person's details. The
 * feed `GET /v1/events` and the webhooks carry the same Event shape.
 */

const JobData = Type.Object(
  {
    jobId: Type.String(),
    status: enumOf(['draft', 'published', 'closed', 'expired'] as const, 'The job status after the change.'),
  },
  { additionalProperties: false },
);
const ApplicationData = Type.Object(
  {
    applicationId: Type.String(),
    jobId: Type.String(),
    status: enumOf(APPLICATION_STATUSES),
    cvStatus: enumOf(CV_STATUSES),
  },
  { additionalProperties: false },
);
const CandidateData = Type.Object(
  {
    candidateId: Type.String(),
    status: enumOf(
      ['queued', 'existing_account', 'suppressed', 'rejected'] as const,
      'The import outcome: queued, existing_account, suppressed or rejected.',
    ),
    cvStatus: enumOf(['none', ...CV_STATUSES] as const),
  },
  { additionalProperties: false },
);
const MatchData = Type.Object(
  { matchId: Type.String(), jobId: Type.String(), candidateId: Type.String() },
  { additionalProperties: false },
);
const ScreeningData = Type.Object(
  {
    screeningId: Type.String(),
    jobId: Type.String(),
    candidateId: Type.String(),
    status: enumOf(['invited', 'completed', 'cancelled'] as const),
  },
  { additionalProperties: false },
);

const StageData = Type.Object(
  {
    applicationId: Type.String(),
    jobId: Type.String(),
    stage: enumOf(APPLICATION_STAGES, "The application's pipeline stage after the move."),
  },
  { additionalProperties: false },
);

/** Each event type, what it reports and the shape of its data. */
export const EVENT_TYPES = {
  'job.published': { data: JobData, about: 'A job was published (or published again).' },
  'job.updated': {
    data: JobData,
    about: 'A live job changed: words edited or staged words promoted, expiresAt or maxMatches changed.',
  },
  'job.closed': { data: JobData, about: 'A job was closed.' },
  'job.expired': {
    data: JobData,
    about: 'A job reached its expiresAt. Expiry writes nothing to the job (updatedAt does not move).',
  },
  'application.received': { data: ApplicationData, about: 'An application was received.' },
  'application.cv_status_changed': {
    data: ApplicationData,
    about: "An application's virtual CV moved: staged, claimed, deleted or failed.",
  },
  'application.withdrawn': {
    data: ApplicationData,
    about: 'An application was withdrawn (e.g. unreadable CV).',
  },
  'application.erased': {
    data: Type.Object(
      { applicationId: Type.String(), jobId: Type.String() },
      { additionalProperties: false },
    ),
    about:
      "An application's personal data was erased (retention, an erasure request or the candidate's delete); ids, statuses and dates stay.",
  },
  'candidate.erased': {
    data: Type.Object({ candidateId: Type.String() }, { additionalProperties: false }),
    about: "An imported candidate's personal data was erased; ids, statuses and dates stay.",
  },
  'application.stage_changed': {
    data: StageData,
    about: 'A recruiter moved an application to another pipeline stage (the public status is unchanged).',
  },
  'candidate.cv_status_changed': {
    data: CandidateData,
    about: "An imported candidate's virtual CV moved: staged, claimed, deleted or failed.",
  },
  'match.created': { data: MatchData, about: 'A candidate match was generated for a managed ad.' },
  'screening.invited': { data: ScreeningData, about: 'A candidate was invited to a screening.' },
  'screening.completed': { data: ScreeningData, about: 'A screening was completed.' },
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

/** What the event's data holds, by type. */
export type EventData<T extends EventType> = Static<(typeof EVENT_TYPES)[T]['data']>;
/** An event as a service records it: its type and its data, matched. */
export type EventInput = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

/** The scope a key needs to see an event of this type in the feed. */
export function scopeOfEventType(type: EventType): Scope {
  if (type.startsWith('job.')) return 'jobs:read';
  if (type.startsWith('application.') || type.startsWith('candidate.')) return 'applications:write';
  return 'screening';
}

function eventSchema(type: EventType, id?: string): TSchema {
  const { data, about } = EVENT_TYPES[type];
  return Type.Object(
    {
      id: Type.String({ description: 'The event id; also the webhook-id header of its deliveries.' }),
      type: Type.Literal(type),
      createdAt: Type.String({ format: 'date-time' }),
      livemode: Type.Boolean({
        description: 'False for an event of test data (a test key’s; extensions.md §8).',
      }),
      data,
    },
    { additionalProperties: false, description: about, ...(id ? { $id: id } : {}) },
  );
}

const schemaName = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}Event`;

/** One named schema per event type (`JobPublishedEvent`, …). */
export const EVENT_SCHEMAS = EVENT_TYPE_NAMES.map((type) => eventSchema(type, schemaName(type)));

export const Event = Type.Union(
  EVENT_TYPE_NAMES.map((type) => Type.Ref(schemaName(type))),
  { $id: 'Event', description: 'An event; `type` tells the shape of `data`.' },
);

export const EventsQuery = Type.Object(
  {
    after: Type.Optional(
      Text({
        maxLength: 200,
        description: 'A nextCursor from an earlier page; absent: from the oldest.',
      }),
    ),
    types: Type.Optional(
      Text({
        maxLength: 1000,
        description: `Comma-separated event types: ${EVENT_TYPE_NAMES.join(', ')}.`,
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
);

export const EventsPage = Type.Object({
  events: Type.Array(Type.Ref('Event')),
  nextCursor: Type.String({
    description: 'Never null: at the end of the feed it is the cursor to poll again from later.',
  }),
});

/**
 * The OpenAPI document's top-level `webhooks`: one entry per event type, the body an endpoint
 * receives, with the Standard Webhooks headers.
 */
export function eventWebhooks(): Record<string, unknown> {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description,
  });
  return Object.fromEntries(
    EVENT_TYPE_NAMES.map((type) => [
      type,
      {
        post: {
          operationId: `${schemaName(type)[0]!.toLowerCase()}${schemaName(type).slice(1)}Webhook`,
          tags: ['events'],
          summary: EVENT_TYPES[type].about,
          description:
            'Delivered per the Standard Webhooks specification: verify webhook-signature (v1,<base64 HMAC-SHA256 of `id.timestamp.body` under the whsec_ secret>) with any Standard Webhooks library. At least once; answer 2xx within 10 seconds.',
          parameters: [
            header('webhook-id', 'The event id; the same on every retry.'),
            header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'),
            header('webhook-signature', 'Space-separated signatures, each `v1,<base64>`.'),
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(type)}` } } },
          },
          responses: { '2XX': { description: 'Received; any other answer or none within 10 s is retried.' } },
        },
      },
    ]),
  );
}

// ---- Console: webhook subscriptions and their delivery log ----

export const WebhookCreate = Type.Object(
  {
    url: Text({ minLength: 1, maxLength: 2048, description: 'https only; a public address.' }),
    types: Type.Optional(
      Type.Array(enumOf(EVENT_TYPE_NAMES as unknown as readonly EventType[]), {
        minItems: 1,
        maxItems: EVENT_TYPE_NAMES.length,
        uniqueItems: true,
        description: 'The event types to deliver; omitted: every type.',
      }),
    ),
    mode: Type.Optional(enumOf(MODES, 'live (default): the live events; test: the test data’s events only.')),
  },
  { additionalProperties: false },
);
export type WebhookCreate = Static<typeof WebhookCreate>;

export const WebhookView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  types: Type.Array(enumOf(EVENT_TYPE_NAMES as unknown as readonly EventType[])),
  mode: enumOf(MODES),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookView = Static<typeof WebhookView>;

export const DeliveryAttempt = Type.Object({
  id: Type.String({ description: 'The attempt; POST …/deliveries/{id}/retry delivers its event again.' }),
  eventId: Type.String(),
  attempt: Type.Integer(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
});
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

export const WebhookParams = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  webhookId: Text({ minLength: 1, maxLength: 64 }),
});
export const DeliveryParams = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  webhookId: Text({ minLength: 1, maxLength: 64 }),
  deliveryId: Text({ minLength: 1, maxLength: 64 }),
});
