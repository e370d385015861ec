import { Type } from 'typebox';
import { SCOPES } from './vocabulary.ts';

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
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

const Name = Type.String({ minLength: 1, maxLength: 200 });
const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });
const CompanyAddress = Type.String({ minLength: 2, maxLength: 60, pattern: COMPANY_ADDRESS_PATTERN });

const limitProperties = Object.fromEntries(
  LIMIT_NAMES.map((name) => [
    name,
    Type.Integer({ minimum: name === 'requestsPerMinute' ? 1 : 0, maximum: 1_000_000_000 }),
  ]),
) as Record<LimitName, ReturnType<typeof Type.Integer>>;

export const Limits = Type.Object(limitProperties, { additionalProperties: false });

export const Account = Type.Object({
  id: Type.String(),
  name: Type.String(),
  companyName: Type.Union([Type.String(), Type.Null()]),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  companyAddress: Type.Union([Type.String(), Type.Null()]),
  dpaAcceptedAt: Type.Union([Type.String(), Type.Null()]),
  limits: Limits,
});

export const AccountCreate = Type.Object(
  {
    name: Name,
    companyName: Type.Optional(Type.Union([Name, Type.Null()])),
    logoUrl: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    companyAddress: Type.Optional(Type.Union([CompanyAddress, Type.Null()])),
  },
  { additionalProperties: false },
);

export const AccountPatch = Type.Object(
  {
    name: Type.Optional(Name),
    companyName: Type.Optional(Type.Union([Name, Type.Null()])),
    logoUrl: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    companyAddress: Type.Optional(Type.Union([CompanyAddress, Type.Null()])),
    dpaAccepted: Type.Optional(Type.Boolean()),
    limits: Type.Optional(Type.Partial(Limits, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const AccountParams = Type.Object({ accountId: Type.String({ minLength: 1, maxLength: 64 }) });
export const KeyParams = Type.Object({
  accountId: Type.String({ minLength: 1, maxLength: 64 }),
  keyId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const KeyCreate = Type.Object(
  {
    scopes: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: SCOPES.length * 2,
    }),
    name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  },
  { additionalProperties: false },
);
