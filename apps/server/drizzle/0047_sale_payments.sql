-- Payments of invoices (docs/decisions/032): each payment received, typed by staff or read from a bank
-- statement, and the sum paid kept on the sale (updated in the payment's transaction, the sale locked).
ALTER TABLE "sales" ADD COLUMN "paid_amount" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE TABLE "sale_payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sale_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sale_id" integer NOT NULL,
	"paid_on" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"source" text NOT NULL,
	"entry_ref" text,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sale_payments_amount_check" CHECK ("sale_payments"."amount" > 0),
	CONSTRAINT "sale_payments_source_check" CHECK ("sale_payments"."source" in ('manual', 'statement'))
);
--> statement-breakpoint
ALTER TABLE "sale_payments" ADD CONSTRAINT "sale_payments_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sale_payments_sale_idx" ON "sale_payments" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "sales_open_invoices_idx" ON "sales" USING btree ("invoice_issued_at") WHERE "sales"."invoice_issued_at" is not null and "sales"."paid_amount" < "sales"."total";
