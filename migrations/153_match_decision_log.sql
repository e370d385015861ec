-- Issue 31 (extensions.md §7, EU AI Act Art. 12 and 26(6)): the decision log of automated matching.
-- One row per generated match, dismissal, restore and screening invitation of a matched person:
-- ids, the ranker's version, the score, the reasons, the actor, when. No personal data (no name,
-- address, phone, CV text, free text), so it is kept when the person's data is erased: no foreign
-- key to matches or people, and the erasure routine never touches it. Kept at least six months.
CREATE TABLE match_decisions (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  at timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('generated', 'dismissed', 'restored', 'invited')),
  job_id text NOT NULL,
  match_id text NOT NULL,
  -- The id the account knows the person by (an import's, an application's, or its own alias).
  candidate_id text NOT NULL,
  ranker_version text NOT NULL,
  -- In ten-thousandths, as matches.score.
  score integer NOT NULL,
  reasons jsonb NOT NULL,
  -- 'system' (the generation), 'operator' (the console token), 'user:<id>', 'key:<id>'.
  actor text NOT NULL,
  -- The screening an invitation opened.
  screening_id text
);
CREATE INDEX match_decisions_account_at ON match_decisions (account_id, at, id);
