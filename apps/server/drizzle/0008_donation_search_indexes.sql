DROP INDEX "subscribers_country_idx";--> statement-breakpoint
CREATE INDEX "donations_amount_idx" ON "donations" USING btree ("amount","subscriber_id");--> statement-breakpoint
CREATE INDEX "subscribers_country_idx" ON "subscribers" USING btree ("country_id","id");