-- The hosted apply page's own daily budgets (issue 11.3): anonymous submissions through the page
-- are counted apart from the API's applications, so a flood on the page never spends the budget
-- the integrator's own API calls rely on.
ALTER TABLE accounts ADD COLUMN hosted_daily_applications integer NOT NULL DEFAULT 300;
ALTER TABLE accounts ADD COLUMN hosted_job_daily_applications integer NOT NULL DEFAULT 100;
CREATE INDEX applications_account_source_created ON applications (account_id, source, created_at);
