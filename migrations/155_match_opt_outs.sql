-- Issue 31 item 6 (extensions.md §7 "The candidate is told"): a person who said "Don't match me"
-- on their claim page leaves every pool of that account and is never matched in it again. The
-- address is kept only as a keyed digest (HMAC-SHA-256 of the normalised address, under the claim
-- link key, which lives outside the database): enough to recognise a re-import of the same address,
-- not to read it. No personal data, so the person's erasure leaves the row (the "no" still holds).
CREATE TABLE match_opt_outs (
  account_id text NOT NULL REFERENCES accounts (id),
  address_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, address_hash)
);
