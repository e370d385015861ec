import { type Static, type TOptional, type TSchema, Type } from 'typebox';
import { Question, QuestionsWrite } from './questions.ts';
import { Text } from './text.ts';
import { enumOf } from './vocabulary.ts';

export const CATEGORIES = [
  'engineering',
  'data',
  'product',
  'design',
  'marketing',
  'sales',
  'customer_success',
  'operations',
  'finance',
  'hr_people',
  'legal',
  'healthcare',
  'education',
  'hospitality',
  'retail',
  'logistics',
  'construction_trades',
  'manufacturing',
  'admin_support',
  'other',
] as const;
export const EMPLOYMENT_TYPES = ['full_time', 'part_time'] as const;
export const CONTRACT_TYPES = ['permanent', 'part_time', 'fixed_term', 'contract', 'casual'] as const;
export const SKILL_LEVELS = ['required', 'nice_to_have'] as const;
export const REMOTE_POLICIES = ['onsite', 'hybrid', 'remote'] as const;
export const PUBLIC_STATUSES = ['published', 'closed', 'expired'] as const;

/** Maximum lengths, documented in the OpenAPI document and enforced by the same schemas. */
export const MAX = {
  title: 200,
  description: 100_000,
  listItems: 50,
  listItem: 1_000,
  skills: 100,
  skillName: 100,
  shortText: 200,
} as const;

const nullable = <
  T extends ReturnType<typeof Text> | ReturnType<typeof Type.Object> | ReturnType<typeof enumOf>,
>(
  schema: T,
) => Type.Union([schema, Type.Null()]);
const short = (description?: string) =>
  Text({ maxLength: MAX.shortText, ...(description ? { description } : {}) });

export const Skill = Type.Object(
  { name: Text({ minLength: 1, maxLength: MAX.skillName }), level: enumOf(SKILL_LEVELS) },
  { additionalProperties: false },
);

export const SALARY_INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type SalaryInterval = (typeof SALARY_INTERVALS)[number];

export const Salary = Type.Object(
  {
    min: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12 })),
    max: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12 })),
    currency: Type.Optional(Text({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, as entered.' })),
    period: Type.Optional(
      Text({ maxLength: 50, description: 'Free text as entered: year, month, day, hour…' }),
    ),
    interval: Type.Optional(
      Type.Union([enumOf(SALARY_INTERVALS), Type.Null()], {
        description:
          'What the pay is per. Sent, it is kept; else read from `period` (null when period cannot be read). Always present on a job read that has a salary.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Location = Type.Object(
  {
    country: Type.Optional(short()),
    state: Type.Optional(short()),
    city: Type.Optional(short()),
    remotePolicy: Type.Optional(enumOf(REMOTE_POLICIES)),
    onsiteDays: Type.Optional(Text({ maxLength: 50 })),
  },
  { additionalProperties: false },
);

const List = Type.Array(Text({ maxLength: MAX.listItem }), { maxItems: MAX.listItems });

/** The words of an ad: what an edit on a published ad stages. */
const wordProperties = {
  title: Text({ minLength: 1, maxLength: MAX.title }),
  category: enumOf(CATEGORIES),
  description: Text({
    maxLength: MAX.description,
    description:
      'Rich text HTML; plain text accepted. Sanitised on write to the hosted page allow-list (p, br, ul, ol, li, strong, b, em, i, u, h2-h4, blockquote, a with http/https/mailto links): scripts, event handlers, styles, images and iframes are removed, so the stored and returned value is safe to render.',
  }),
  responsibilities: List,
  skills: Type.Array(Skill, { maxItems: MAX.skills }),
  benefits: List,
  seniority: nullable(short()),
  yearsExperience: nullable(Text({ maxLength: 50 })),
  employmentType: nullable(enumOf(EMPLOYMENT_TYPES)),
  contractType: nullable(enumOf(CONTRACT_TYPES)),
  salary: nullable(Salary),
  location: nullable(Location),
  workStyle: nullable(short()),
  questions: QuestionsWrite,
};

export const WORD_FIELDS = Object.keys(wordProperties) as (keyof typeof wordProperties)[];

const controlProperties = {
  expiresAt: Type.Union([Text({ format: 'date-time' }), Type.Null()], {
    description: 'When the role stops accepting applications; null clears it. Never staged.',
  }),
  maxMatches: Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()], {
    description: 'Stop generating AI matches once this many exist; null removes the cap. Never staged.',
  }),
};

const optionalAll = <T extends Record<string, TSchema>>(props: T) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };

export const JobCreate = Type.Object(
  { ...optionalAll(wordProperties), ...optionalAll(controlProperties), title: wordProperties.title },
  { additionalProperties: false, title: 'JobWrite (create)' },
);
export type JobCreate = Static<typeof JobCreate>;

export const JobEdit = Type.Object(
  {
    ...optionalAll(wordProperties),
    ...optionalAll(controlProperties),
    publishEdits: Type.Optional(Type.Boolean({ description: 'Promote staged words in the same call.' })),
  },
  { additionalProperties: false, title: 'JobWrite (edit)' },
);
export type JobEdit = Static<typeof JobEdit>;
const Company = Type.Object({ name: Type.String(), logoUrl: Type.Optional(Type.String({ format: 'uri' })) });

const jobReadProperties = {
  id: Type.String(),
  title: Type.String(),
  category: Type.Optional(enumOf(CATEGORIES)),
  description: Type.String(),
  responsibilities: Type.Array(Type.String()),
  skills: Type.Array(Skill),
  benefits: Type.Array(Type.String()),
  seniority: Type.Optional(Type.String()),
  yearsExperience: Type.Optional(Type.String()),
  employmentType: Type.Optional(enumOf(EMPLOYMENT_TYPES)),
  contractType: Type.Optional(enumOf(CONTRACT_TYPES)),
  salary: Type.Optional(Salary),
  location: Type.Optional(Location),
  workStyle: Type.Optional(Type.String()),
  questions: Type.Array(Question, {
    description: "The job's application questions (extensions.md §5); [] when none.",
  }),
  company: Company,
  postedAt: Type.Optional(Type.String({ format: 'date-time' })),
  updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
  expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  closedAt: Type.Optional(Type.String({ format: 'date-time' })),
  url: Type.Optional(Type.String({ format: 'uri', description: 'The hosted job page.' })),
  applyLink: Type.String({ format: 'uri', description: 'The hosted apply page.' }),
};

export const Job = Type.Object(
  { ...jobReadProperties, status: enumOf(PUBLIC_STATUSES) },
  { $id: 'Job', title: 'Job' },
);
export const ADVISORY_CODES = [
  'pay_range_missing',
  'pay_range_open_ended',
  'pay_range_too_wide',
  'closing_date_missing',
  'pay_history_question',
] as const;

/** What a job ad in its location may need by law (extensions.md §9); never blocks publishing. */
export const Advisory = Type.Object(
  {
    code: enumOf(ADVISORY_CODES),
    message: Type.String(),
    rule: Type.String({ description: 'The law or regulation the advisory rests on.' }),
  },
  { title: 'Advisory' },
);

export const AuthoredJob = Type.Object(
  {
    ...jobReadProperties,
    status: enumOf(['draft', ...PUBLIC_STATUSES] as const),
    advisories: Type.Optional(
      Type.Array(Advisory, {
        description:
          'Pay-transparency advisories for the job’s location, salary, expiry and questions; [] when none. Publishing is never refused for one.',
      }),
    ),
  },
  { $id: 'AuthoredJob', title: 'AuthoredJob' },
);
export type AuthoredJob = Static<typeof AuthoredJob>;

export const JobParams = Type.Object({ jobId: Text({ minLength: 1, maxLength: 64 }) });

export const PublishBody = Type.Object(
  {
    expiryDays: Type.Optional(
      Type.Union([Type.Literal(30), Type.Literal(60), Type.Literal(90), Type.Null()], {
        description: '30, 60 or 90 days from now; null (default): live until closed by hand.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListQuery = Type.Object(
  {
    status: Type.Optional(
      Text({ maxLength: 100, description: 'Comma-separated subset of published, closed, expired.' }),
    ),
    updatedSince: Type.Optional(
      Text({ maxLength: 40, description: 'ISO 8601 timestamp or epoch milliseconds.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(Text({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
