-- Issue 31 (extensions.md §7, Art. 86): what each match's score is made of, for its explanation:
-- [{ name, weight, value }], the weights as the ranker applied them. Null for matches made before.
ALTER TABLE matches ADD COLUMN components jsonb;
