-- Candidate matches for managed ads (extensions.md §2; issue 19).

-- What matching reads of a built virtual CV; rebuilt with the CV, erased with it.
CREATE TABLE match_profiles (
  subject_kind text NOT NULL CHECK (subject_kind IN ('application', 'candidate')),
  subject_id text NOT NULL,
  account_id text NOT NULL REFERENCES accounts (id),
  -- The lower-cased address, so that one person is matched once and an applicant is not a match.
  email_key text,
  profile jsonb NOT NULL,
  -- Skill keys and title concepts ('t:backend'): what a role's generation pre-selects on.
  terms text[] NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (subject_kind, subject_id)
);
CREATE INDEX match_profiles_account ON match_profiles (account_id, updated_at);
CREATE INDEX match_profiles_terms ON match_profiles USING gin (terms);
CREATE INDEX match_profiles_address ON match_profiles (email_key);

CREATE TABLE matches (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  job_id text NOT NULL REFERENCES jobs (id),
  candidate_kind text NOT NULL CHECK (candidate_kind IN ('application', 'candidate')),
  candidate_id text NOT NULL,
  -- One match per person per role: the address, or the subject's id when there is none.
  person_key text NOT NULL,
  -- The score in ten-thousandths (0..10000): exact to compare and to page on.
  score integer NOT NULL CHECK (score >= 0 AND score <= 10000),
  reasons jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (job_id, person_key)
);
CREATE INDEX matches_job_rank ON matches (job_id, score DESC, id);
CREATE INDEX matches_candidate ON matches (candidate_id);
