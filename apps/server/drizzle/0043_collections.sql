-- SEPA direct-debit collections (EPC SEPA Core Direct Debit rulebook; ISO 20022 pain.008): the
-- installments of the recurring gifts due on one day, exported as one file, then settled as donations.
CREATE TABLE "collections" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "collections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"due_date" date NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"exported_at" timestamp with time zone,
	"exported_by" text,
	"file_version" text,
	"file_xml" text,
	"message_id" text,
	"settled_at" timestamp with time zone,
	"settled_by" text,
	CONSTRAINT "collections_status_check" CHECK ("collections"."status" in ('draft', 'exported', 'settled')),
	CONSTRAINT "collections_file_version_check" CHECK ("collections"."file_version" is null or "collections"."file_version" in ('pain.008.001.08', 'pain.008.001.02'))
);--> statement-breakpoint
CREATE TABLE "collection_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "collection_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"collection_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"mandate_id" integer NOT NULL,
	"subscriber_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"sequence_type" text NOT NULL,
	"end_to_end_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason_code" text,
	"donation_id" integer,
	CONSTRAINT "collection_lines_end_to_end_id_key" UNIQUE("end_to_end_id"),
	CONSTRAINT "collection_lines_amount_check" CHECK ("collection_lines"."amount" > 0),
	CONSTRAINT "collection_lines_sequence_type_check" CHECK ("collection_lines"."sequence_type" in ('FRST', 'RCUR', 'OOFF')),
	CONSTRAINT "collection_lines_status_check" CHECK ("collection_lines"."status" in ('pending', 'removed', 'collected', 'returned', 'rejected'))
);--> statement-breakpoint
ALTER TABLE "collection_lines" ADD CONSTRAINT "collection_lines_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_lines" ADD CONSTRAINT "collection_lines_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_lines" ADD CONSTRAINT "collection_lines_mandate_id_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."mandates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_lines" ADD CONSTRAINT "collection_lines_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_lines" ADD CONSTRAINT "collection_lines_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collections_one_draft_per_day" ON "collections" USING btree ("due_date") WHERE "collections"."status" = 'draft';--> statement-breakpoint
CREATE INDEX "collections_due_date_idx" ON "collections" USING btree ("due_date");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_lines_installment_key" ON "collection_lines" USING btree ("plan_id","due_date") WHERE "collection_lines"."status" <> 'removed';--> statement-breakpoint
CREATE INDEX "collection_lines_collection_idx" ON "collection_lines" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "collection_lines_mandate_idx" ON "collection_lines" USING btree ("mandate_id");--> statement-breakpoint
CREATE INDEX "collection_lines_subscriber_idx" ON "collection_lines" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "collection_lines_donation_idx" ON "collection_lines" USING btree ("donation_id") WHERE "collection_lines"."donation_id" is not null;
