-- The recruiter console's people (extensions.md §1): users with one role each, their invitations,
-- their sessions, and the audit trail of what was changed through the console.

CREATE TABLE console_users (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  -- Lower-cased; one address signs in to one account (see docs/decisions.md).
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'recruiter', 'billing_admin')),
  -- scrypt$N$r$p$salt$hash; null until the invitation is accepted.
  password_hash text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX console_users_email ON console_users (email);
CREATE INDEX console_users_account ON console_users (account_id, id);

-- Only the SHA-256 of an invitation token is kept; a link is single-use and expires.
CREATE TABLE console_invitations (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX console_invitations_user ON console_invitations (user_id);

-- Sessions live in the database so that every instance knows them; only the id's SHA-256 is kept.
CREATE TABLE console_sessions (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_user ON console_sessions (user_id);

CREATE TABLE console_audit (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  -- 'user' (a console user, by id and the email it had) or 'operator' (the console token).
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'operator')),
  actor_id text,
  actor_email text,
  action text NOT NULL,
  target text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  at timestamptz NOT NULL
);
CREATE INDEX console_audit_account ON console_audit (account_id, id);
