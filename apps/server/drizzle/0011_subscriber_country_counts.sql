CREATE TABLE "subscriber_country_counts" (
	"country_id" integer PRIMARY KEY NOT NULL,
	"active" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Keeps subscriber_country_counts exact in the transaction that changes a subscriber (the dashboard
-- reads it every 30 s on every screen).
CREATE FUNCTION "subscriber_country_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted_before integer; -- the country key the subscriber was counted under, null when not counted
  counted_after integer;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.inactive AND NOT OLD.hidden THEN
    counted_before := coalesce(OLD.country_id, 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW.inactive AND NOT NEW.hidden THEN
    counted_after := coalesce(NEW.country_id, 0);
  END IF;
  IF counted_before IS NOT DISTINCT FROM counted_after THEN
    RETURN NULL;
  END IF;
  -- The lower country key first: two subscribers moved in opposite directions at the same time
  -- then lock the two counts in the same order and cannot deadlock.
  IF counted_before IS NOT NULL AND (counted_after IS NULL OR counted_before < counted_after) THEN
    UPDATE "subscriber_country_counts" SET "active" = "active" - 1 WHERE "country_id" = counted_before;
    counted_before := NULL;
  END IF;
  IF counted_after IS NOT NULL THEN
    INSERT INTO "subscriber_country_counts" AS counts ("country_id", "active")
    VALUES (counted_after, 1)
    ON CONFLICT ("country_id") DO UPDATE SET "active" = counts."active" + 1;
  END IF;
  IF counted_before IS NOT NULL THEN
    UPDATE "subscriber_country_counts" SET "active" = "active" - 1 WHERE "country_id" = counted_before;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_country_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "subscriber_country_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriber_country_counts_on_insert_or_delete" AFTER INSERT OR DELETE ON "subscribers"
  FOR EACH ROW EXECUTE FUNCTION "subscriber_country_counts_track"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_country_counts_on_update" AFTER UPDATE OF "country_id", "inactive", "hidden" ON "subscribers"
  FOR EACH ROW
  WHEN (OLD.country_id IS DISTINCT FROM NEW.country_id OR OLD.inactive <> NEW.inactive OR OLD.hidden <> NEW.hidden)
  EXECUTE FUNCTION "subscriber_country_counts_track"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_country_counts_on_truncate" AFTER TRUNCATE ON "subscribers"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_country_counts_clear"();
--> statement-breakpoint
INSERT INTO "subscriber_country_counts" ("country_id", "active")
SELECT coalesce("country_id", 0), count(*)::int FROM "subscribers"
 WHERE NOT "inactive" AND NOT "hidden" GROUP BY 1;
