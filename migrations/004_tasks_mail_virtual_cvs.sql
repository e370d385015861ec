-- Background tasks: enqueued in the transaction of their cause, claimed with SKIP LOCKED under a
-- lease, retried with backoff, and dead-lettered (state 'dead') after their last attempt.
CREATE TABLE tasks (
  id text PRIMARY KEY,
  name text NOT NULL,
  -- One task per key: enqueueing the same key again is a no-op.
  key text NOT NULL UNIQUE,
  payload jsonb NOT NULL,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  run_after timestamptz NOT NULL,
  locked_until timestamptz,
  locked_by text,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX tasks_ready ON tasks (run_after) WHERE state IN ('queued', 'running');
CREATE INDEX tasks_finished ON tasks (finished_at) WHERE state = 'done';

-- The structured CV built from an application's or an import's PDF.
CREATE TABLE virtual_cvs (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  subject_kind text NOT NULL CHECK (subject_kind IN ('application', 'candidate')),
  subject_id text NOT NULL,
  document jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (subject_kind, subject_id)
);

-- The one link a candidate gets by email; only a hash of the token is stored.
CREATE TABLE claim_links (
  token_hash text PRIMARY KEY,
  subject_kind text NOT NULL CHECK (subject_kind IN ('application', 'candidate')),
  subject_id text NOT NULL,
  locale text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (subject_kind, subject_id)
);

ALTER TABLE applications ADD COLUMN staged_at timestamptz;
ALTER TABLE candidates ADD COLUMN staged_at timestamptz;
CREATE INDEX applications_staged ON applications (staged_at) WHERE cv_status = 'staged';
CREATE INDEX candidates_staged ON candidates (staged_at) WHERE cv_status = 'staged';

-- What the outbox transport "sent" (the default transport); listed by the console.
CREATE TABLE mail_outbox (
  id text PRIMARY KEY,
  key text NOT NULL UNIQUE,
  subject_ref text,
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  locale text NOT NULL,
  sent_at timestamptz NOT NULL
);
CREATE INDEX mail_outbox_recipient ON mail_outbox (recipient, sent_at);

-- Keys of messages delivered over SMTP, so that a retried task never sends twice.
CREATE TABLE mail_sent (
  key text PRIMARY KEY,
  subject_ref text,
  sent_at timestamptz NOT NULL
);

-- Secrets every instance must share (e.g. the key that derives claim-link tokens).
CREATE TABLE service_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL
);
