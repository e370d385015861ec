CREATE TABLE jobs (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  status text NOT NULL CHECK (status IN ('draft', 'published', 'closed')),
  -- The live words (title, description, …) as JobWrite names them.
  content jsonb NOT NULL,
  -- Words edited on a published ad and not yet promoted; null when there are none.
  staged jsonb,
  slug text,
  expires_at timestamptz,
  max_matches integer,
  -- Set while the ad is managed: the start of its managing period.
  managed_since timestamptz,
  first_published_at timestamptz,
  posted_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (account_id, slug)
);
-- Keyset pages of the public list (drafts never appear there).
CREATE INDEX jobs_public_by_id ON jobs (account_id, id DESC) WHERE status <> 'draft';
CREATE INDEX jobs_by_updated ON jobs (account_id, updated_at) WHERE status <> 'draft';
CREATE INDEX jobs_managed ON jobs (account_id) WHERE managed_since IS NOT NULL;
