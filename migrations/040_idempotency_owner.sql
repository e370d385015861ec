-- Issue 12 item 4: a claim names the process holding it; a process proves it is alive with a
-- heartbeat, so the claim of a process that died is taken over within seconds instead of after
-- the 60 s lock. `owner` is "<instance id> <claim token>".
ALTER TABLE idempotency_records ADD COLUMN owner text;

CREATE TABLE service_instances (
  id text PRIMARY KEY,
  seen_at timestamptz NOT NULL
);
