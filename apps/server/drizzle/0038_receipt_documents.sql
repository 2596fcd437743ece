-- Each receipt is the document its donor's residence calls for (docs/decisions/024): `cerfa`, the French
-- "reçu au titre des dons" (Cerfa 11580*05, CGI art. 200, 238 bis), in euros, or `attestation`, the Swiss
-- "attestation de dons" (LIFD art. 33a, 59), in francs. Receipts issued before were all Cerfa.
ALTER TABLE "receipts" ADD COLUMN "document" text DEFAULT 'cerfa' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_document_check" CHECK ("receipts"."document" in ('cerfa', 'attestation'));--> statement-breakpoint
-- The box of the Cerfa's "Bénéficiaire" section the organisation ticks, and what goes with it (the
-- decree of a recognition of public utility, or what "another organisation" is).
ALTER TABLE "organisation_settings" ADD COLUMN "organisation_type" text DEFAULT 'general-interest' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "organisation_type_detail" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The organisation's annual statement counts the receipts issued in a calendar year (CGI art. 222 bis).
CREATE INDEX "receipts_issued_at_idx" ON "receipts" USING btree ("issued_at");
