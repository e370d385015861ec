-- Issue 32 (extensions.md §8): a webhook endpoint is live or test and receives only its mode's
-- events. Endpoints stay under the live account; a test endpoint receives the test twin's events.
ALTER TABLE webhooks
  ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'));
