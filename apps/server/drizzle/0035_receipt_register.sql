-- The receipt register (docs/decisions/023): a receipt is cancelled, never edited or deleted; it keeps
-- the gifts it covered as issued (`lines`), names the receipt it replaces, and carries the SHA-256 of its
-- content chained to the previous receipt's (stamped at start-up for the receipts issued before).
ALTER TABLE "receipts" ADD COLUMN "status" text DEFAULT 'issued' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_status_check" CHECK ("receipts"."status" in ('issued', 'cancelled'));--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "replaces_number" integer;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_replaces_number_fk" FOREIGN KEY ("replaces_number") REFERENCES "receipts"("number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_replaces_unique" ON "receipts" USING btree ("replaces_number") WHERE "replaces_number" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "lines" jsonb;--> statement-breakpoint
UPDATE "receipts" r SET "lines" = coalesce((
  SELECT jsonb_agg(jsonb_build_object('donationId', d.id, 'date', d.donation_date::text, 'amount', d.amount::text)
                   ORDER BY d.donation_date, d.id)
  FROM "donations" d WHERE d.receipt_id = r.id), '[]'::jsonb);--> statement-breakpoint
ALTER TABLE "receipts" ALTER COLUMN "lines" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE INDEX "receipts_year_number_idx" ON "receipts" USING btree ("year", "number");--> statement-breakpoint
CREATE FUNCTION receipts_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'receipt % is kept: a receipt is cancelled, never deleted', OLD.number;
  END IF;
  IF NEW.number IS DISTINCT FROM OLD.number OR NEW.kind IS DISTINCT FROM OLD.kind
     OR NEW.year IS DISTINCT FROM OLD.year OR NEW.total IS DISTINCT FROM OLD.total
     OR NEW.currency_id IS DISTINCT FROM OLD.currency_id OR NEW.issued_at IS DISTINCT FROM OLD.issued_at
     OR NEW.issued_by IS DISTINCT FROM OLD.issued_by OR NEW.lines IS DISTINCT FROM OLD.lines
     OR NEW.replaces_number IS DISTINCT FROM OLD.replaces_number
     OR (OLD.hash IS NOT NULL AND NEW.hash IS DISTINCT FROM OLD.hash) THEN
    RAISE EXCEPTION 'receipt % is immutable: only its cancellation is recorded', OLD.number;
  END IF;
  IF OLD.status = 'cancelled' AND (NEW.status <> 'cancelled'
     OR NEW.cancelled_at IS DISTINCT FROM OLD.cancelled_at OR NEW.cancelled_by IS DISTINCT FROM OLD.cancelled_by
     OR NEW.cancel_reason IS DISTINCT FROM OLD.cancel_reason) THEN
    RAISE EXCEPTION 'receipt % is cancelled for good', OLD.number;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;--> statement-breakpoint
CREATE TRIGGER receipts_kept BEFORE UPDATE OR DELETE ON "receipts" FOR EACH ROW EXECUTE FUNCTION receipts_kept();
