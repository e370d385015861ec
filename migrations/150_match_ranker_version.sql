-- Issue 31 (extensions.md §7): which ranking produced each match, and the digest of its inputs.
-- Matches made before this were made by a ranker nobody recorded.
ALTER TABLE matches
  ADD COLUMN ranker_version text NOT NULL DEFAULT 'unrecorded',
  ADD COLUMN inputs_digest text;
