import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.ts';

/** Row types of the console's people: users, invitations, sessions and the audit trail. */

export interface ConsoleUsersTable {
  id: string;
  account_id: string;
  email: string;
  role: 'admin' | 'recruiter' | 'billing_admin';
  password_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConsoleInvitationsTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface ConsoleSessionsTable {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface ConsoleAuditTable {
  id: string;
  account_id: string;
  actor_kind: 'user' | 'operator';
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  detail: ColumnType<Record<string, unknown>, string, string>;
  at: Timestamp;
  /** Write order (an identity column). */
  seq: Generated<string>;
}

export interface ConsoleTables {
  console_users: ConsoleUsersTable;
  console_invitations: ConsoleInvitationsTable;
  console_sessions: ConsoleSessionsTable;
  console_audit: ConsoleAuditTable;
}
