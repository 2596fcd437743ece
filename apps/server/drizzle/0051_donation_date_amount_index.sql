-- The date order with the amount: a donation search by days and amount (the Donations screen's "one
-- month over 50") counts its matches and walks its page from the index alone. At a million donations
-- the count of one month over 50 went from 10 ms to 4.7 ms (search speed goal).
DROP INDEX IF EXISTS "donations_date_idx";--> statement-breakpoint
CREATE INDEX "donations_date_idx" ON "donations" USING btree ("donation_date","id","amount");
