-- Bank statement entries (docs/decisions/033): each booked transaction of an imported camt.053 or
-- camt.054, once (the bank's reference is unique), with what it became: a payment of an invoice, a
-- donation, dismissed with a reason, or listed only (debits, returns, reversals).
CREATE TABLE "bank_statement_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_statement_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_ref" text NOT NULL,
	"account_iban" text,
	"booking_date" date NOT NULL,
	"value_date" date,
	"amount" numeric(14, 2) NOT NULL,
	"currency" text NOT NULL,
	"direction" text NOT NULL,
	"is_return" boolean DEFAULT false NOT NULL,
	"reversal" boolean DEFAULT false NOT NULL,
	"debtor_name" text,
	"debtor_iban" text,
	"reference" text,
	"text" text DEFAULT '' NOT NULL,
	"end_to_end_id" text,
	"status" text NOT NULL,
	"sale_id" integer,
	"payment_id" integer,
	"donation_id" integer,
	"subscriber_id" integer,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"dismiss_reason" text,
	"imported_by" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_statement_entries_entry_ref_key" UNIQUE("entry_ref"),
	CONSTRAINT "bank_statement_entries_direction_check" CHECK ("bank_statement_entries"."direction" in ('credit', 'debit')),
	CONSTRAINT "bank_statement_entries_status_check" CHECK ("bank_statement_entries"."status" in ('matched', 'unmatched', 'assigned', 'dismissed', 'listed'))
);
--> statement-breakpoint
ALTER TABLE "bank_statement_entries" ADD CONSTRAINT "bank_statement_entries_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statement_entries" ADD CONSTRAINT "bank_statement_entries_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statement_entries" ADD CONSTRAINT "bank_statement_entries_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_statement_entries_status_idx" ON "bank_statement_entries" USING btree ("status","booking_date","id");
