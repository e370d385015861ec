CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  company_name text,
  logo_url text,
  company_address text UNIQUE,
  dpa_accepted_at timestamptz,
  requests_per_minute integer NOT NULL DEFAULT 120,
  daily_applications integer NOT NULL DEFAULT 500,
  job_daily_applications integer NOT NULL DEFAULT 200,
  daily_candidate_imports integer NOT NULL DEFAULT 500,
  weekly_unsolicited_contacts integer NOT NULL DEFAULT 2,
  managed_ad_slots integer NOT NULL DEFAULT 5,
  included_screenings_per_managed_ad integer NOT NULL DEFAULT 10,
  monthly_overage_cap_cents integer NOT NULL DEFAULT 50000,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- An address an account used before; its hosted pages answer a permanent redirect to the current one.
CREATE TABLE company_address_history (
  address text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  retired_at timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text,
  scopes text[] NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id, id);

CREATE TABLE idempotency_records (
  account_id text NOT NULL REFERENCES accounts (id),
  route text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  locked_until timestamptz,
  status_code integer,
  response_body text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, route, key)
);
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at);
