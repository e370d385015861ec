-- Issue 31 (extensions.md §7): a recruiter dismisses a match, with a reason, and may restore it.
-- The dismissed row stays (UNIQUE (job_id, person_key) keeps the person from being matched to the
-- role again) but leaves the list and the cap's count.
ALTER TABLE matches
  ADD COLUMN dismissed_at timestamptz,
  -- The console user's id, or 'operator' (the console token).
  ADD COLUMN dismissed_by text,
  ADD COLUMN dismiss_reason text CHECK (char_length(dismiss_reason) <= 500);
CREATE INDEX matches_dismissed ON matches (job_id, dismissed_at DESC) WHERE dismissed_at IS NOT NULL;
