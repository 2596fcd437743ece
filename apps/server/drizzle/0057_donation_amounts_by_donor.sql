-- A donor's gifts by date, now with their amount: a donation search by a donor's country, category or
-- town and an amount reads both sides in donor order from indexes alone and merges them, instead of
-- looking up the donor of each gift in the amount range (France and 100–500 at a million subscribers,
-- collecting the first 10,001 matches: 82 ms through 16,000 donor lookups, 20 ms merged). A search by
-- name and amount checks the amount in the index too.
DROP INDEX IF EXISTS "donations_subscriber_date_idx";--> statement-breakpoint
CREATE INDEX "donations_subscriber_date_idx" ON "donations" USING btree ("subscriber_id","donation_date","id","amount");
