-- A subscriber's donations and sales by date with their id: a search by donor or buyer name finds the
-- ids of its page from these indexes alone, and reads full rows for that page only (search speed goal).
DROP INDEX IF EXISTS "donations_subscriber_date_idx";--> statement-breakpoint
CREATE INDEX "donations_subscriber_date_idx" ON "donations" USING btree ("subscriber_id","donation_date","id");--> statement-breakpoint
DROP INDEX IF EXISTS "sales_subscriber_idx";--> statement-breakpoint
CREATE INDEX "sales_subscriber_idx" ON "sales" USING btree ("subscriber_id","added_on","id");
