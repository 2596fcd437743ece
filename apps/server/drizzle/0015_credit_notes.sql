CREATE TABLE "credit_note_counter" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credit_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"number" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"sale_ref" integer NOT NULL,
	"reason" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"currency_symbol" text NOT NULL,
	"currency_name" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by" text NOT NULL,
	"issued_by_user_id" integer
);
--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "invoice_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_number_unique" ON "credit_notes" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_sale_unique" ON "credit_notes" USING btree ("sale_id");--> statement-breakpoint
CREATE FUNCTION credit_notes_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit notes are immutable: credit note % cannot be changed or deleted', OLD.number;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER credit_notes_immutable BEFORE UPDATE OR DELETE ON "credit_notes"
  FOR EACH ROW EXECUTE FUNCTION credit_notes_immutable();
--> statement-breakpoint
CREATE FUNCTION sales_issued_invoice_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.invoice_issued_at IS NOT NULL THEN
    RAISE EXCEPTION 'sale % has an issued invoice and cannot be deleted', OLD.ref;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.invoice_issued_at IS NOT NULL
     AND NEW.invoice_issued_at IS DISTINCT FROM OLD.invoice_issued_at THEN
    RAISE EXCEPTION 'the issue date of invoice % cannot change', OLD.ref;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sales_issued_invoice_kept BEFORE UPDATE OR DELETE ON "sales"
  FOR EACH ROW EXECUTE FUNCTION sales_issued_invoice_kept();
