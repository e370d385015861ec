import { type Static, Type } from 'typebox';
import { Text } from './text.ts';
import { enumOf, MODES, SCOPES } from './vocabulary.ts';

/** A company address: a URL slug of a-z, 0-9 and single hyphens (console.md). */
export const COMPANY_ADDRESS_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])$';

/** The account limits the console sets (console.md, Accounts). */
export const LIMIT_NAMES = [
  'requestsPerMinute',
  'dailyApplications',
  'jobDailyApplications',
  'dailyCandidateImports',
  'weeklyUnsolicitedContacts',
  'managedAdSlots',
  'includedScreeningsPerManagedAd',
  'monthlyOverageCapCents',
  'hostedDailyApplications',
  'hostedJobDailyApplications',
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

const Name = Text({ minLength: 1, maxLength: 200 });
const HttpUrl = Text({ format: 'uri', pattern: '^https?://[^\\u0000\\uD800-\\uDFFF]*$', maxLength: 2048 });
const CompanyAddress = Text({ minLength: 2, maxLength: 60, pattern: COMPANY_ADDRESS_PATTERN });

const limitProperties = Object.fromEntries(
  LIMIT_NAMES.map((name) => [
    name,
    Type.Integer({ minimum: name === 'requestsPerMinute' ? 1 : 0, maximum: 1_000_000_000 }),
  ]),
) as Record<LimitName, ReturnType<typeof Type.Integer>>;

export const Limits = Type.Object(limitProperties, { additionalProperties: false });
export type Limits = Static<typeof Limits>;

/** Retention (extensions.md §6): days after which the person's data is erased, 0–1095. */
const RetentionDays = Type.Integer({ minimum: 0, maximum: 1095 });
export const Retention = Type.Object(
  { applicationDays: RetentionDays, candidateDays: RetentionDays },
  { additionalProperties: false },
);
export type Retention = Static<typeof Retention>;

export const Account = Type.Object({
  id: Type.String(),
  name: Type.String(),
  companyName: Type.Union([Type.String(), Type.Null()]),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  companyAddress: Type.Union([Type.String(), Type.Null()]),
  dpaAcceptedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  limits: Limits,
  retention: Retention,
  /** Automated matching (extensions.md §7): false generates nothing and the matches list answers 409. */
  matchingEnabled: Type.Boolean(),
  embedOrigins: Type.Array(Type.String(), {
    description: 'Origins whose pages may frame the hosted pages (the careers page embed, extensions.md §9).',
  }),
});
export type Account = Static<typeof Account>;

/** At most this many origins may frame an account's hosted pages. */
export const EMBED_ORIGINS_MAX = 20;

/** GET /console/v1/accounts: the platform's accounts, oldest first, a page at a time. */
export const AccountListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Text({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export const AccountList = Type.Object({
  accounts: Type.Array(Account),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type AccountList = Static<typeof AccountList>;

export const AccountCreate = Type.Object(
  {
    name: Name,
    companyName: Type.Optional(Type.Union([Name, Type.Null()])),
    logoUrl: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    companyAddress: Type.Optional(Type.Union([CompanyAddress, Type.Null()])),
  },
  { additionalProperties: false },
);
export type AccountCreate = Static<typeof AccountCreate>;

export const AccountPatch = Type.Object(
  {
    name: Type.Optional(Name),
    companyName: Type.Optional(Type.Union([Name, Type.Null()])),
    logoUrl: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    companyAddress: Type.Optional(Type.Union([CompanyAddress, Type.Null()])),
    dpaAccepted: Type.Optional(Type.Boolean()),
    limits: Type.Optional(Type.Partial(Limits, { additionalProperties: false })),
    retention: Type.Optional(Type.Partial(Retention, { additionalProperties: false })),
    matchingEnabled: Type.Optional(Type.Boolean()),
    // Each checked by the account service (one 400 naming the origin), the count here.
    embedOrigins: Type.Optional(
      Type.Array(Text({ maxLength: 300 }), {
        maxItems: EMBED_ORIGINS_MAX,
        description: 'https://host[:port] (http:// for localhost and 127.0.0.1); at most 20.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AccountPatch = Static<typeof AccountPatch>;

export const AccountParams = Type.Object({ accountId: Text({ minLength: 1, maxLength: 64 }) });
export const KeyParams = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  keyId: Text({ minLength: 1, maxLength: 64 }),
});

/** Test mode (extensions.md §8): a key is live or test. */
export const KEY_MODES = MODES;

export const KeyCreate = Type.Object(
  {
    // Plain strings, not the enum: the key service names the unknown scope in its 400.
    scopes: Type.Array(Text({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: SCOPES.length * 2,
    }),
    name: Type.Optional(Type.Union([Text({ maxLength: 200 }), Type.Null()])),
    mode: Type.Optional(
      enumOf(KEY_MODES, 'live (default) or test: a test key (cak_test_…) sees and makes test data only.'),
    ),
  },
  { additionalProperties: false },
);
export type KeyCreate = Static<typeof KeyCreate>;

/** A key as the console lists it; the secret is never part of it. */
export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  scopes: Type.Array(enumOf(SCOPES)),
  mode: enumOf(KEY_MODES),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type ApiKey = Static<typeof ApiKey>;
