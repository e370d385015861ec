-- The claim links' HMAC key leaves the database (issue 11.7): it now comes from CLAIM_LINK_KEY or
-- DATA_DIR/claim-link-key. Links already mailed keep working: a link is found by its token's hash,
-- which claim_links keeps; a mail re-sent for such a subject carries the new key's link and the row
-- follows it (cv-repository ensureLink).
DELETE FROM service_secrets WHERE name = 'claim-link';
