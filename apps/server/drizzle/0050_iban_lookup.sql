-- Finding who holds the IBAN of a bank statement's payer (docs/decisions/033): the subscribers' IBAN as
-- the import compares it (no spaces, capitals) and the mandates' IBAN, each indexed.
CREATE INDEX "subscribers_iban_compact_idx" ON "subscribers" USING btree (upper(replace("iban", ' ', ''))) WHERE "subscribers"."iban" <> '';--> statement-breakpoint
CREATE INDEX "mandates_iban_idx" ON "mandates" USING btree ("iban") WHERE "mandates"."iban" <> '';
