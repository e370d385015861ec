-- Issue 27 (extensions.md §4, Home's funnel): how often a job's hosted pages were served, per job,
-- UTC day and page. Counts only: no cookie, no address, no user agent, nothing about the visitor.
CREATE TABLE job_page_views (
  job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('job_page', 'apply_page')),
  count bigint NOT NULL DEFAULT 0 CHECK (count >= 0),
  PRIMARY KEY (job_id, day, kind)
);
-- Home sums an account's last 30 days: the key's day is second, so a by-day scan helps there.
CREATE INDEX job_page_views_day ON job_page_views (day, job_id);
