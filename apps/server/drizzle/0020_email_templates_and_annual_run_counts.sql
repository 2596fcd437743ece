ALTER TABLE "organisation_settings" ADD COLUMN "receipt_email_subject" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "receipt_email_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "annual_receipt_email_subject" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "annual_receipt_email_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "bulk_email_footer" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "annual_runs" ADD COLUMN "skipped_single_receipts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "annual_run_items" ADD COLUMN "receipts_issued" integer DEFAULT 0 NOT NULL;
