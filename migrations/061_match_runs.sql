-- Matching reads a CV's words only for a shortlist, so they are kept beside the profile.
ALTER TABLE match_profiles ADD COLUMN words text[] NOT NULL DEFAULT '{}';

-- The last generation of each role: what it was run for, and the profiles it has scored, so that a
-- run for new profiles scores only those (the cost stays flat as the pool grows) and a change of
-- the role's words, of its cap upwards or of its managing period scores the whole pool again.
CREATE TABLE match_runs (
  job_id text PRIMARY KEY REFERENCES jobs (id),
  words_hash text NOT NULL,
  max_matches integer,
  managed_since timestamptz NOT NULL,
  -- Profiles updated before this instant were scored for the role's words.
  scored_until timestamptz NOT NULL,
  -- The run filled all the room it had: people it scored but did not choose may be due later.
  filled boolean NOT NULL,
  ran_at timestamptz NOT NULL
);
