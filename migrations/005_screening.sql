CREATE TABLE screening_templates (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  -- null: the price cannot be read (the screening route answers 409 price_unavailable).
  price_cents integer,
  currency text NOT NULL CHECK (currency IN ('AUD', 'USD')),
  active boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX screening_templates_account ON screening_templates (account_id, id);

CREATE TABLE screenings (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  job_id text NOT NULL REFERENCES jobs (id),
  candidate_kind text NOT NULL CHECK (candidate_kind IN ('application', 'candidate')),
  candidate_id text NOT NULL,
  template_id text NOT NULL REFERENCES screening_templates (id),
  -- 'expired' is computed from complete_by, like a job's expiry.
  status text NOT NULL CHECK (status IN ('invited', 'completed', 'cancelled')),
  delivery_path text NOT NULL CHECK (delivery_path IN ('virtual_cv', 'email')),
  billing text NOT NULL CHECK (billing IN ('included', 'overage')),
  price_cents integer NOT NULL,
  currency text NOT NULL,
  -- The start of the ad's managing period when the screening was asked for.
  managed_since timestamptz NOT NULL,
  unsolicited boolean NOT NULL,
  message text,
  language text NOT NULL,
  complete_by timestamptz NOT NULL,
  requested_at timestamptz NOT NULL,
  completed_at timestamptz,
  cancelled_at timestamptz
);
CREATE INDEX screenings_job_candidate ON screenings (job_id, candidate_id);
CREATE INDEX screenings_account_month ON screenings (account_id, requested_at);
CREATE INDEX screenings_candidate_contacts ON screenings (account_id, candidate_id, requested_at) WHERE unsolicited;

-- The public job feed: every account's live roles, newest first.
CREATE INDEX jobs_feed ON jobs (id DESC) WHERE status = 'published';
