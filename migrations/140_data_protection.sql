-- Issue 30 (extensions.md §6): retention per account, one erasure routine, erasure receipts, Art. 14.
ALTER TABLE accounts
  ADD COLUMN retention_application_days integer NOT NULL DEFAULT 180
    CHECK (retention_application_days BETWEEN 0 AND 1095),
  ADD COLUMN retention_candidate_days integer NOT NULL DEFAULT 180
    CHECK (retention_candidate_days BETWEEN 0 AND 1095);

-- When the person's data was erased (retention, an erasure request, the candidate's delete, the
-- staged CV's expiry); the row keeps ids, statuses, dates and the consent text's id and version.
ALTER TABLE applications ADD COLUMN erased_at timestamptz;
ALTER TABLE candidates
  ADD COLUMN erased_at timestamptz,
  -- Art. 14: when the account recorded that it told the person it holds their data (an import with
  -- sendClaimEmail: false is erased after 30 days unless this is set; docs/decisions.md).
  ADD COLUMN informed_at timestamptz;

-- The retention sweep's candidates: not yet erased, by job (the due date depends on the job).
CREATE INDEX applications_retention ON applications (job_id, created_at) WHERE erased_at IS NULL;
CREATE INDEX candidates_retention ON candidates (account_id, created_at) WHERE erased_at IS NULL;

-- An erasure request's receipt: what was erased and when, without the address (a keyed hash).
CREATE TABLE erasure_receipts (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  address_hash text NOT NULL,
  applications integer NOT NULL,
  candidates integer NOT NULL,
  matches integer NOT NULL,
  screenings integer NOT NULL,
  files integer NOT NULL,
  erased_at timestamptz NOT NULL
);
CREATE INDEX erasure_receipts_account ON erasure_receipts (account_id, erased_at DESC, id DESC);
-- A later import of the address answers `suppressed` for this account.
CREATE INDEX erasure_receipts_address ON erasure_receipts (account_id, address_hash);
