-- Email consent on the subscriber record (GDPR art. 7) and the retention report of inactive subscribers
-- (GDPR art. 5(1)(e)): its period in the settings, and an index that finds visible records not changed
-- since a day without reading the register. Adding columns with constant defaults rewrites no rows.
ALTER TABLE "subscribers" ADD COLUMN "email_consent_date" date;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "email_consent_source" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "subscribers_visible_updated_at_idx" ON "subscribers" USING btree ("updated_at","id") WHERE not "subscribers"."hidden";--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "inactivity_report_years" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD CONSTRAINT "organisation_settings_inactivity_report_years_check" CHECK ("organisation_settings"."inactivity_report_years" between 1 and 50);
