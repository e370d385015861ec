-- Issue 25.4: a console user is one (account, email). An address unique across all accounts let any
-- account learn that it was a console user elsewhere, and take it first so that its real employer
-- never could. Sign-in tries the password against each user of the address (docs/decisions.md).
DROP INDEX console_users_email;
CREATE UNIQUE INDEX console_users_account_email ON console_users (account_id, email);
CREATE INDEX console_users_email ON console_users (email);
