-- Direct debit (EPC SEPA Core Direct Debit rulebook): how many calendar days before a collection's due
-- date each debtor is told its amount and date (the pre-notification, 14 days unless agreed otherwise,
-- at least 2 here), and whether a mandate's first collection is sent as RCUR (allowed since the 2016
-- rulebook) instead of FRST.
ALTER TABLE "organisation_settings" ADD COLUMN "sepa_pre_notification_days" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD CONSTRAINT "organisation_settings_sepa_pre_notification_days_check" CHECK ("organisation_settings"."sepa_pre_notification_days" between 2 and 60);--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "sepa_first_as_recurring" boolean DEFAULT false NOT NULL;
