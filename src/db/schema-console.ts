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
  /** Sealed (see totp.ts); never returned. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: NullableTimestamp;
  /** The 30-second step of the last code accepted (a code is good once). */
  totp_last_step: ColumnType<number, number | undefined, number>;
}

export interface ConsoleAccountSecurityTable {
  account_id: string;
  require_totp: boolean;
  updated_at: Timestamp;
}

export interface ConsolePasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface ConsolePendingSignInsTable {
  id_hash: string;
  user_id: string;
  step: 'code' | 'enrol';
  failures: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ConsoleShownOnceTable {
  id_hash: string;
  user_id: string;
  kind: 'key' | 'webhook';
  label: string;
  sealed: string;
  created_at: Timestamp;
  expires_at: Timestamp;
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
  console_account_security: ConsoleAccountSecurityTable;
  console_password_resets: ConsolePasswordResetsTable;
  console_pending_sign_ins: ConsolePendingSignInsTable;
  console_shown_once: ConsoleShownOnceTable;
}
