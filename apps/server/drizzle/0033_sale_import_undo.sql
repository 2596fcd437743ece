-- An undone sale import deletes the sales it wrote, whose invoices the old tool issued: allowed only
-- to that undo, which says so for its own transaction (set_config('back_office.undoing_import', 'on', true)).
CREATE OR REPLACE FUNCTION sales_issued_invoice_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.invoice_issued_at IS NOT NULL
     AND coalesce(current_setting('back_office.undoing_import', true), '') <> 'on' THEN
    RAISE EXCEPTION 'sale % has an issued invoice and cannot be deleted', OLD.ref;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.invoice_issued_at IS NOT NULL
     AND NEW.invoice_issued_at IS DISTINCT FROM OLD.invoice_issued_at THEN
    RAISE EXCEPTION 'the issue date of invoice % cannot change', OLD.ref;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
