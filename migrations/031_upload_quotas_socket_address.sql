-- Upload quotas (issue 11.4): an upload made through the hosted apply page is marked, with the
-- client-address bucket it came from, so outstanding bytes are capped per address and the page's
-- uploads are counted apart from the API's. The hosted page's consent receipt keeps the socket
-- address beside the address derived through the trusted proxies (issue 11.5); internal only.
ALTER TABLE uploads ADD COLUMN hosted boolean NOT NULL DEFAULT false;
ALTER TABLE uploads ADD COLUMN client_bucket text;
CREATE INDEX uploads_outstanding_account ON uploads (account_id, hosted) WHERE used_at IS NULL;
CREATE INDEX uploads_outstanding_bucket ON uploads (client_bucket) WHERE used_at IS NULL AND client_bucket IS NOT NULL;
ALTER TABLE applications ADD COLUMN consent_socket_address text;
