-- Getting paid (docs/decisions/031): the accounts invoices are paid to (one per currency, IBAN or
-- Swiss QR-IBAN), whether euro invoices carry an EPC QR code, and each issued invoice's payment
-- reference (a QR reference or an ISO 11649 RF creditor reference), unique, with the account it was
-- issued to be paid to (a later change of the settings does not change an issued invoice).
ALTER TABLE "organisation_settings" ADD COLUMN "bank_accounts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "epc_qr_code" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "payment_reference" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "payment_iban" text;--> statement-breakpoint
CREATE UNIQUE INDEX "sales_payment_reference_key" ON "sales" USING btree ("payment_reference") WHERE "sales"."payment_reference" is not null;
