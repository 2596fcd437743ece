CREATE TABLE "subscriber_country_counts" (
	"country_id" integer PRIMARY KEY NOT NULL,
	"active" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Keeps subscriber_country_counts exact in the transaction that changes a subscriber (issue 7 load).
CREATE FUNCTION "subscriber_country_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.inactive AND NOT OLD.hidden THEN
    UPDATE "subscriber_country_counts" SET "active" = "active" - 1
     WHERE "country_id" = coalesce(OLD.country_id, 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW.inactive AND NOT NEW.hidden THEN
    INSERT INTO "subscriber_country_counts" AS counts ("country_id", "active")
    VALUES (coalesce(NEW.country_id, 0), 1)
    ON CONFLICT ("country_id") DO UPDATE SET "active" = counts."active" + 1;
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
