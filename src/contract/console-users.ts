import { type Static, Type } from 'typebox';
import { Text } from './text.ts';

/** The console's roles (extensions.md §1). */
export const CONSOLE_ROLES = ['admin', 'recruiter', 'billing_admin'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** Shortest password a console user may set (extensions.md §1); the longest bounds the KDF's input. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

const Id = Text({ minLength: 1, maxLength: 64 });
const Email = Text({ format: 'email', minLength: 3, maxLength: 254 });
const Role = Type.Union([Type.Literal('admin'), Type.Literal('recruiter'), Type.Literal('billing_admin')], {
  description: 'admin, recruiter or billing_admin',
});

export const ConsoleUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  createdAt: Type.String({ format: 'date-time' }),
  /** False until the invitation was accepted (a password set). */
  active: Type.Boolean(),
});
export type ConsoleUser = Static<typeof ConsoleUser>;

export const UserInvite = Type.Object({ email: Email, role: Role }, { additionalProperties: false });
export type UserInvite = Static<typeof UserInvite>;

export const UserParams = Type.Object({ accountId: Id, userId: Id });

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.Object({
    kind: Type.Union([Type.Literal('user'), Type.Literal('operator')]),
    userId: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  }),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 100 })),
    cursor: Type.Optional(Text({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
