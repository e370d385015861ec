-- Entries made within one millisecond have ids in no particular order: the trail is listed in the
-- order the entries were written.
ALTER TABLE console_audit ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX console_audit_account_seq ON console_audit (account_id, seq);
