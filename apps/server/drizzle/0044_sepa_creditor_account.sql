-- The account SEPA direct debits are credited to (the creditor account of the pain.008 files): its IBAN
-- and, optionally, its bank's BIC; empty while unknown (no collection file is written then).
ALTER TABLE "organisation_settings" ADD COLUMN "sepa_creditor_iban" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "sepa_creditor_bic" text DEFAULT '' NOT NULL;
