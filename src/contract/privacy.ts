import { type Static, Type } from 'typebox';
import { Text } from './text.ts';

/** The console API of extensions.md §6: access exports, erasure requests and their receipts. */

const Address = Text({ minLength: 3, maxLength: 254, description: 'The person’s email address.' });

export const PeopleExportQuery = Type.Object({ email: Address }, { additionalProperties: false });
export const PeopleErase = Type.Object({ email: Address }, { additionalProperties: false });

export const ErasureReceipt = Type.Object({
  id: Type.String(),
  erasedAt: Type.String({ format: 'date-time' }),
  applications: Type.Integer(),
  candidates: Type.Integer(),
  matches: Type.Integer(),
  screenings: Type.Integer(),
  files: Type.Integer(),
});
export type ErasureReceipt = Static<typeof ErasureReceipt>;

export const ErasureListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Text({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const CandidateParams = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  candidateId: Text({ minLength: 1, maxLength: 64 }),
});
