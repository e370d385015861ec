-- Issue 28 (extensions.md §5): voluntary demographic answers, stored apart from the application.
-- One row per chosen value, with nothing that leads back to a person: no application id, no
-- candidate, no timestamp (one would line up with applications.created_at), no row id. They are
-- read only as counts per question and value, a count under 5 shown as "fewer than 5".
CREATE TABLE demographic_answers (
  account_id text NOT NULL REFERENCES accounts (id),
  job_id text NOT NULL REFERENCES jobs (id),
  question_id text NOT NULL,
  value text NOT NULL
);
CREATE INDEX demographic_answers_job ON demographic_answers (job_id, question_id, value);
