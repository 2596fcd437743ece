-- Personal-data rights (docs/decisions/019): when a subscriber was anonymised, the donor block of their
-- receipts as printed (kept until the retention period has passed), and that period in the settings.
ALTER TABLE "subscribers" ADD COLUMN "anonymised_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscribers_anonymised_idx" ON "subscribers" USING btree ("id") WHERE "subscribers"."anonymised_at" is not null;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "donor" jsonb;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "document_retention_years" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD CONSTRAINT "organisation_settings_document_retention_years_check" CHECK ("organisation_settings"."document_retention_years" between 1 and 50);--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_entity_type_check";--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_entity_type_check" CHECK ("audit_events"."entity_type" in ('user', 'product', 'reference_list_item', 'settings', 'sign_in', 'subscriber'));--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_action_check";--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_action_check" CHECK ("audit_events"."action" in ('created', 'updated', 'deleted', 'role_changed', 'password_changed', 'sign_in_locked', 'personal_data_exported', 'anonymised', 'personal_data_purged'));
