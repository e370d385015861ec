-- Issue 29 (workers under load): a managed role's match generation is queued at most once. A queued
-- generation reads the role and the pool when it runs, so a later change only needs one queued
-- task per role, not one per pool state (the soak left 3,135 generate-matches tasks open).
CREATE INDEX tasks_queued_generation ON tasks ((payload ->> 'jobId'))
  WHERE name = 'generate-matches' AND state = 'queued';
