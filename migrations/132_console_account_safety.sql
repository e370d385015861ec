-- Account safety of the console (extensions.md §4, issue 27.6): password resets by mail, a TOTP
-- second factor per user (an account may require it), the half-signed state between the password
-- and the code, and secrets shown once after a POST-redirect-GET.

-- The TOTP secret is sealed (AES-256-GCM under a key derived from the server's secret, bound to
-- the user id); `totp_pending_secret` holds one being set up until its first code confirms it.
-- `totp_last_step` is the 30-second step of the last code accepted: a code is good once.
ALTER TABLE console_users
  ADD COLUMN totp_secret text,
  ADD COLUMN totp_pending_secret text,
  ADD COLUMN totp_enabled_at timestamptz,
  ADD COLUMN totp_last_step integer NOT NULL DEFAULT 0;

CREATE TABLE console_account_security (
  account_id text PRIMARY KEY REFERENCES accounts (id),
  require_totp boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL
);

-- Only the SHA-256 of a reset token is kept; a link is single-use and expires after an hour.
CREATE TABLE console_password_resets (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX console_password_resets_user ON console_password_resets (user_id);

-- A password accepted, the second step still due: 'code' (TOTP on) or 'enrol' (the account requires
-- TOTP and the user has none yet). Only the id's SHA-256 is kept; it lives ten minutes.
CREATE TABLE console_pending_sign_ins (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  step text NOT NULL CHECK (step IN ('code', 'enrol')),
  failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_pending_sign_ins_user ON console_pending_sign_ins (user_id);

-- A secret just made (an API key, a webhook's signing secret), sealed, waiting for the one page
-- that shows it; the page deletes the row as it reads it.
CREATE TABLE console_shown_once (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('key', 'webhook')),
  label text NOT NULL,
  sealed text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_shown_once_user ON console_shown_once (user_id);
