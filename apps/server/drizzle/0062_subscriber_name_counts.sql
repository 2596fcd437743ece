-- How many visible subscribers bear each folded last name in each country (0: none), so that a search
-- by a last name anywhere, alone or with a country, counts its matches from the names it matches
-- instead of reading every match: "mar" at a million subscribers matches 81 names and 25,000 people,
-- whose capped count and sorted page read 20,001 index entries (22 ms); their counts are 81 sums. Kept
-- as signed deltas that triggers only insert, so that no writer waits for another on a counter (an
-- import's transaction would otherwise hold every counter it touched until its commit); a repeated
-- job folds each name's deltas into one row (`folded`; the partial index finds the others). A name's
-- count is the sum of its rows.
CREATE TABLE "subscriber_name_counts" (
	"search_last_name" text NOT NULL,
	"country_id" integer NOT NULL,
	"bearers" integer NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
INSERT INTO "subscriber_name_counts" ("search_last_name", "country_id", "bearers", "folded")
SELECT "search_last_name", coalesce("country_id", 0), count(*), true FROM "subscribers" WHERE NOT "hidden" GROUP BY 1, 2;
--> statement-breakpoint
CREATE INDEX "subscriber_name_counts_name_idx" ON "subscriber_name_counts" USING btree ("search_last_name", "country_id", "bearers");
--> statement-breakpoint
CREATE INDEX "subscriber_name_counts_unfolded_idx" ON "subscriber_name_counts" USING btree ("search_last_name", "country_id") WHERE NOT "folded";
--> statement-breakpoint
CREATE FUNCTION "subscriber_name_counts_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "subscriber_name_counts" ("search_last_name", "country_id", "bearers")
  SELECT "search_last_name", coalesce("country_id", 0), count(*) FROM inserted_rows WHERE NOT "hidden" GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_name_counts_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "subscriber_name_counts" ("search_last_name", "country_id", "bearers")
  SELECT "search_last_name", coalesce("country_id", 0), -count(*) FROM deleted_rows WHERE NOT "hidden" GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_name_counts_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT OLD."hidden" THEN
    INSERT INTO "subscriber_name_counts" ("search_last_name", "country_id", "bearers")
    VALUES (OLD."search_last_name", coalesce(OLD."country_id", 0), -1);
  END IF;
  IF NOT NEW."hidden" THEN
    INSERT INTO "subscriber_name_counts" ("search_last_name", "country_id", "bearers")
    VALUES (NEW."search_last_name", coalesce(NEW."country_id", 0), 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_name_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "subscriber_name_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriber_name_counts_on_insert" AFTER INSERT ON "subscribers"
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_name_counts_on_insert"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_name_counts_on_delete" AFTER DELETE ON "subscribers"
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_name_counts_on_delete"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_name_counts_on_update" AFTER UPDATE OF "search_last_name", "country_id", "hidden" ON "subscribers"
  FOR EACH ROW WHEN (OLD."search_last_name" IS DISTINCT FROM NEW."search_last_name"
    OR OLD."country_id" IS DISTINCT FROM NEW."country_id" OR OLD."hidden" IS DISTINCT FROM NEW."hidden")
  EXECUTE FUNCTION "subscriber_name_counts_on_update"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_name_counts_on_truncate" AFTER TRUNCATE ON "subscribers"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_name_counts_clear"();
--> statement-breakpoint
ANALYZE "subscriber_name_counts";
