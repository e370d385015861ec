-- Issue 31 (extensions.md §7): the account's switch for automated matching (default on). When off,
-- nothing is generated and the matches list answers 409 matching_disabled; matches made are kept.
ALTER TABLE accounts ADD COLUMN matching_enabled boolean NOT NULL DEFAULT true;
