-- subscriber_country_counts is kept by one update per country per statement for inserts and deletes,
-- instead of one per row: an import of 100,000 subscribers in one transaction updated the same two
-- count rows 50,000 times each, and each update walked the row's growing chain of versions.
CREATE FUNCTION "subscriber_country_counts_add_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- In country order, as the row trigger locks them: concurrent writers cannot deadlock.
  INSERT INTO "subscriber_country_counts" AS counts ("country_id", "active")
  SELECT coalesce("country_id", 0), count(*)::integer FROM inserted_rows
  WHERE NOT "inactive" AND NOT "hidden" GROUP BY 1 ORDER BY 1
  ON CONFLICT ("country_id") DO UPDATE SET "active" = counts."active" + excluded."active";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_country_counts_remove_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed record;
BEGIN
  FOR removed IN
    SELECT coalesce("country_id", 0) AS country_id, count(*)::integer AS n FROM deleted_rows
    WHERE NOT "inactive" AND NOT "hidden" GROUP BY 1 ORDER BY 1
  LOOP
    UPDATE "subscriber_country_counts" SET "active" = "active" - removed.n WHERE "country_id" = removed.country_id;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "subscriber_country_counts_on_insert_or_delete" ON "subscribers";
--> statement-breakpoint
CREATE TRIGGER "subscriber_country_counts_on_insert" AFTER INSERT ON "subscribers"
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_country_counts_add_inserted"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_country_counts_on_delete" AFTER DELETE ON "subscribers"
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_country_counts_remove_deleted"();
