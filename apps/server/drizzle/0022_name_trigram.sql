-- Name search anywhere in the name (docs/decisions/016): trigram indexes on the folded name columns, so
-- that `search_last_name LIKE '%uran%'` is an index scan at a million subscribers. pg_trgm is a trusted
-- extension (PostgreSQL 13+: a database owner may create it); PGlite loads it in src/db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscribers_search_last_name_trgm_idx" ON "subscribers" USING gin ("search_last_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscribers_search_first_name_trgm_idx" ON "subscribers" USING gin ("search_first_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscribers_search_association_trgm_idx" ON "subscribers" USING gin ("search_association" gin_trgm_ops);
