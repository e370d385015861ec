-- The event log: one row per change, written in the transaction of the change it reports, so an
-- event exists exactly when its change committed. `data` holds ids and statuses only.
-- `txid` is the writing transaction's id: the feed reads only events of transactions older than
-- every transaction still running, so a page never moves past an event that commits later.
CREATE TABLE events (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  account_id text NOT NULL REFERENCES accounts (id),
  type text NOT NULL,
  data jsonb NOT NULL,
  -- Emitted at most once per key (job.expired: one per job and expiry instant); null for the rest.
  dedupe_key text UNIQUE,
  txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at timestamptz NOT NULL
);
CREATE INDEX events_feed ON events (account_id, txid, seq);
CREATE INDEX events_created ON events (created_at);

-- An account's webhook endpoints; the signing secret is kept to sign (it is shown once, at creation).
CREATE TABLE webhooks (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  url text NOT NULL,
  -- null: every event type.
  types text[],
  secret text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhooks_account ON webhooks (account_id);

-- One delivery per event and endpoint (the task's key), retried with backoff until it succeeds or
-- its last attempt fails.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  account_id text NOT NULL,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (webhook_id, next_attempt_at)
  WHERE state IN ('queued', 'running');
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);

-- The delivery log: one row per attempt, what the endpoint answered or why it was not reached.
CREATE TABLE webhook_attempts (
  id text PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  webhook_id text NOT NULL,
  event_id text NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  error text,
  at timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, at DESC);

-- Where a sweep got to (job.expired: the last expiry instant and job id it reported).
CREATE TABLE event_sweeps (
  name text PRIMARY KEY,
  position_at timestamptz NOT NULL,
  position_id text NOT NULL
);
CREATE INDEX jobs_expiry_sweep ON jobs (expires_at, id) WHERE status = 'published' AND expires_at IS NOT NULL;
