-- Issue 32 (extensions.md §8): test mode. An account's test data lives under its test twin: a
-- second accounts row (livemode false) pointing at the live one. Every query already scoped by
-- account_id is thereby scoped by mode too (reads, lists, budgets, idempotency, events, webhooks,
-- matches, billing). The twin copies the live account's profile and limits (the account service
-- keeps them in step); its company address is the live one's plus ".test", which no live account
-- can hold (live addresses are a-z, 0-9 and hyphens).
ALTER TABLE accounts
  ADD COLUMN livemode boolean NOT NULL DEFAULT true,
  ADD COLUMN live_account_id text UNIQUE REFERENCES accounts (id),
  ADD CONSTRAINT accounts_test_twin CHECK (livemode = (live_account_id IS NULL));

-- A key's mode; a test key's requests act on the account's test twin.
ALTER TABLE api_keys
  ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'));
