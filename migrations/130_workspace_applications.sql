-- Issues 27 and 28 (extensions.md §4 and §5), shared by the pipeline, the forms and the Home page.
-- The recruiter's pipeline stage of an application: 'new' on arrival; the public status is untouched.
ALTER TABLE applications
  ADD COLUMN stage text NOT NULL DEFAULT 'new'
    CHECK (stage IN ('new', 'reviewing', 'shortlisted', 'interviewing', 'offered', 'hired', 'rejected')),
  ADD COLUMN stage_changed_at timestamptz,
  -- §5's ApplicationWrite.source as sent ({ channel?, utm*?, referrer? }), NULL when none was sent.
  ADD COLUMN source_detail jsonb,
  -- The channel the console filters and counts by: source.channel when sent, else the route the
  -- application came through ('api', 'integrator_site', 'job_page', later 'embed').
  ADD COLUMN source_channel text;
UPDATE applications SET source_channel = source WHERE source_channel IS NULL;
ALTER TABLE applications ALTER COLUMN source_channel SET NOT NULL;
CREATE INDEX applications_job_stage ON applications (job_id, stage);
CREATE INDEX applications_job_channel ON applications (job_id, source_channel);
