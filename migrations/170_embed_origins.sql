-- Issue 33 (extensions.md §9): the origins that may frame the account's hosted pages (its careers
-- page, job pages and apply form), sent as CSP frame-ancestors; at most 20, each an origin
-- (https://host[:port], or http:// for localhost and 127.0.0.1) as the console normalised it.
ALTER TABLE accounts ADD COLUMN embed_origins text[] NOT NULL DEFAULT '{}';
