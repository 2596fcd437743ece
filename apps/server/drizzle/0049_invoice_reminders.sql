-- Payment reminders of overdue invoices (docs/decisions/034): the email's templates (empty: the
-- French default), the fewest days between two reminders of one invoice, and on each sale how many
-- reminders were sent and the day of the last.
ALTER TABLE "organisation_settings" ADD COLUMN "reminder_email_subject" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "reminder_email_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "reminder_interval_days" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD CONSTRAINT "organisation_settings_reminder_interval_days_check" CHECK ("organisation_settings"."reminder_interval_days" between 1 and 90);--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "reminder_level" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "last_reminder_on" date;
