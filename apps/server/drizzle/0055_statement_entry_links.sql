-- The subscriber, donation and sale of a bank statement entry, indexed: deleting a subscriber, a donation
-- or a sale makes PostgreSQL look up the entries that name it (to set them null, or to refuse). Without an
-- index each deleted row read the whole table: undoing an import of 99,400 subscribers beside 6,700 pages
-- of entries took 211 s and ran into the 120 s statement timeout.
CREATE INDEX "bank_statement_entries_subscriber_idx" ON "bank_statement_entries" USING btree ("subscriber_id") WHERE "bank_statement_entries"."subscriber_id" is not null;
--> statement-breakpoint
CREATE INDEX "bank_statement_entries_donation_idx" ON "bank_statement_entries" USING btree ("donation_id") WHERE "bank_statement_entries"."donation_id" is not null;
--> statement-breakpoint
CREATE INDEX "bank_statement_entries_sale_idx" ON "bank_statement_entries" USING btree ("sale_id") WHERE "bank_statement_entries"."sale_id" is not null;
