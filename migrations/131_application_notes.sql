-- Issue 27 (extensions.md §4): the recruiter's notes on an application, and the indexes the
-- console's applications list pages by (keyset on (sort key, id) within a job).
CREATE TABLE application_notes (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  -- Who wrote it: a signed-in console user (id and address as they were) or the operator.
  author_kind text NOT NULL CHECK (author_kind IN ('user', 'operator')),
  author_id text,
  author_email text,
  text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 5000),
  created_at timestamptz NOT NULL
);
CREATE INDEX application_notes_application ON application_notes (application_id, created_at);
CREATE INDEX applications_job_created_id ON applications (job_id, created_at, id);
CREATE INDEX applications_job_name_id ON applications (job_id, lower(name), id);
