-- Platform people open to matches (issue 19, extensions.md §2 "Pool"): a job seeker who holds a
-- platform account may give a CV and choose to be found. Their virtual CV belongs to no account;
-- while it is built and they are open to matches, every account's managed roles may match them.

ALTER TABLE people ADD COLUMN open_to_matches boolean NOT NULL DEFAULT false;
-- none: no CV given; processing: being built; built; failed: unreadable; deleted: erased by them.
ALTER TABLE people ADD COLUMN cv_status text NOT NULL DEFAULT 'none'
  CHECK (cv_status IN ('none', 'processing', 'built', 'failed', 'deleted'));
ALTER TABLE people ADD COLUMN blob_key text;
ALTER TABLE people ADD COLUMN locale text NOT NULL DEFAULT 'en';
ALTER TABLE people ADD COLUMN updated_at timestamptz;
UPDATE people SET updated_at = created_at;
ALTER TABLE people ALTER COLUMN updated_at SET NOT NULL;

-- The virtual CV of a platform person: built by the same builder as an import's, held by nobody
-- else, erased when they delete it.
CREATE TABLE person_cvs (
  person_id text PRIMARY KEY REFERENCES people (id),
  document jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

-- An upload the platform made (the console's, for a platform person's CV): held by no account.
ALTER TABLE uploads ALTER COLUMN account_id DROP NOT NULL;
CREATE INDEX uploads_outstanding_platform ON uploads (expires_at) WHERE used_at IS NULL AND account_id IS NULL;

-- A platform person's profile has no account: it is in every account's pool.
ALTER TABLE match_profiles DROP CONSTRAINT match_profiles_subject_kind_check;
ALTER TABLE match_profiles ADD CONSTRAINT match_profiles_subject_kind_check
  CHECK (subject_kind IN ('application', 'candidate', 'person'));
ALTER TABLE match_profiles ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE match_profiles ADD CONSTRAINT match_profiles_platform_check
  CHECK ((subject_kind = 'person') = (account_id IS NULL));
CREATE INDEX match_profiles_platform ON match_profiles (updated_at) WHERE account_id IS NULL;

-- A match of a platform person names them to the account by an id of that account's own
-- (candidate_id, 'plp_…'), so two accounts cannot tell they were matched with the same person;
-- subject_id is the pool's subject (the person's id), which erasure and the read join on.
ALTER TABLE matches DROP CONSTRAINT matches_candidate_kind_check;
ALTER TABLE matches ADD CONSTRAINT matches_candidate_kind_check
  CHECK (candidate_kind IN ('application', 'candidate', 'person'));
ALTER TABLE matches ADD COLUMN subject_id text;
UPDATE matches SET subject_id = candidate_id;
ALTER TABLE matches ALTER COLUMN subject_id SET NOT NULL;
CREATE INDEX matches_subject ON matches (candidate_kind, subject_id);

ALTER TABLE screenings DROP CONSTRAINT screenings_candidate_kind_check;
ALTER TABLE screenings ADD CONSTRAINT screenings_candidate_kind_check
  CHECK (candidate_kind IN ('application', 'candidate', 'person'));

-- Optional embedding provider (docs/operations.md): a profile's vector, for the model that made it.
ALTER TABLE match_profiles ADD COLUMN embedding real[];
ALTER TABLE match_profiles ADD COLUMN embedding_model text;
CREATE TABLE match_role_vectors (
  job_id text PRIMARY KEY REFERENCES jobs (id),
  words_hash text NOT NULL,
  model text NOT NULL,
  vector real[] NOT NULL,
  created_at timestamptz NOT NULL
);
