-- A candidate import looks up whether the account already holds a CV for the address through an
-- application to any of its roles (already_imported), so applications are found by account and address.
CREATE INDEX applications_account_address ON applications (account_id, email_key) WHERE email_key IS NOT NULL;
