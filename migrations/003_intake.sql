CREATE TABLE uploads (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  bytes integer NOT NULL,
  file_name text,
  created_at timestamptz NOT NULL,
  -- The presigned PUT works until put_expires_at; the id is usable until expires_at.
  put_expires_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  received_at timestamptz,
  -- Set when an application or import took the file, or when the file was discarded.
  used_at timestamptz
);
CREATE INDEX uploads_unused_expiry ON uploads (expires_at) WHERE used_at IS NULL;

CREATE TABLE applications (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  job_id text NOT NULL REFERENCES jobs (id),
  -- Lower-cased address: one application per address per job.
  email_key text,
  name text,
  email text,
  phone text,
  location text,
  cover_note text,
  answers jsonb,
  consent_receipt json,
  consent_text_id text NOT NULL,
  consent_version text NOT NULL,
  consent_locale text NOT NULL,
  consent_text text,
  lawful_basis json,
  source text NOT NULL,
  blob_key text,
  status text NOT NULL CHECK (status IN ('received', 'withdrawn')),
  cv_status text NOT NULL CHECK (cv_status IN ('processing', 'staged', 'claimed', 'deleted', 'failed')),
  reason text,
  claimed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX applications_one_per_address ON applications (job_id, email_key) WHERE email_key IS NOT NULL;
CREATE INDEX applications_account_day ON applications (account_id, created_at);
CREATE INDEX applications_job_day ON applications (job_id, created_at);

CREATE TABLE candidates (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  email_key text,
  name text,
  email text,
  locale text NOT NULL,
  send_claim_email boolean NOT NULL,
  lawful_basis json,
  outcome text NOT NULL CHECK (outcome IN ('queued', 'existing_account', 'suppressed', 'rejected')),
  cv_status text NOT NULL CHECK (cv_status IN ('none', 'processing', 'staged', 'claimed', 'deleted', 'failed')),
  rejection jsonb,
  blob_key text,
  claimed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX candidates_one_per_address ON candidates (account_id, email_key) WHERE email_key IS NOT NULL;
CREATE INDEX candidates_account_day ON candidates (account_id, created_at);

-- Job seekers who hold their own account and CV on the platform.
CREATE TABLE people (
  id text PRIMARY KEY,
  email_key text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

-- People who asked not to be held: only a hash of the address is kept.
CREATE TABLE suppressions (
  email_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL
);
