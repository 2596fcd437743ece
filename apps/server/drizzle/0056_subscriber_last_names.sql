-- The distinct folded last names of the register, with their own trigram index (docs/decisions/016). A
-- last name searched anywhere is matched against these names first, and their bearers are then read
-- from the name index alone (subscribers_search_name_idx): the trigram index of the register itself made
-- PostgreSQL recheck one heap row per match ("boy" at 200,000 subscribers: 1,133 rows on 1,054 pages,
-- 7.4 ms; through the names 1.4 ms). Kept in the transaction that changes a subscriber: a name is listed
-- while at least one subscriber, deleted or not, bears it, so an erased name does not stay behind.
CREATE TABLE "subscriber_last_names" (
	"search_last_name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO "subscriber_last_names" ("search_last_name")
SELECT DISTINCT "search_last_name" FROM "subscribers";
--> statement-breakpoint
CREATE INDEX "subscriber_last_names_trgm_idx" ON "subscriber_last_names" USING gin ("search_last_name" gin_trgm_ops);
--> statement-breakpoint
-- Lists `names`. The names already listed are locked FOR KEY SHARE first: a removal of one of them (its
-- last bearer renamed, deleted or erased at the same time) then waits for this transaction and sees its
-- new bearer; adders do not wait for each other. In name order, as removals lock them.
CREATE FUNCTION "subscriber_last_names_add"("names" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "subscriber_last_names" WHERE "search_last_name" = ANY ("names")
    ORDER BY "search_last_name" FOR KEY SHARE;
  INSERT INTO "subscriber_last_names" ("search_last_name")
  SELECT DISTINCT "name" FROM unnest("names") AS "name" ORDER BY 1
  ON CONFLICT DO NOTHING;
END
$$;
--> statement-breakpoint
-- Removes those of `names` that no subscriber bears any more. Each is locked first (waiting for a
-- transaction that is adding a bearer), then checked again: in READ COMMITTED each statement of this
-- function sees what committed before it began.
CREATE FUNCTION "subscriber_last_names_remove_unused"("names" text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "unused" text[];
BEGIN
  SELECT array_agg("name" ORDER BY "name") INTO "unused" FROM (SELECT DISTINCT unnest("names") AS "name") AS "named"
   WHERE NOT EXISTS (SELECT 1 FROM "subscribers" WHERE "search_last_name" = "named"."name");
  IF "unused" IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM "subscriber_last_names" WHERE "search_last_name" = ANY ("unused")
    ORDER BY "search_last_name" FOR UPDATE;
  DELETE FROM "subscriber_last_names" AS "listed" WHERE "listed"."search_last_name" = ANY ("unused")
     AND NOT EXISTS (SELECT 1 FROM "subscribers" WHERE "search_last_name" = "listed"."search_last_name");
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_last_names_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "subscriber_last_names_add"(ARRAY(SELECT DISTINCT "search_last_name" FROM inserted_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_last_names_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "subscriber_last_names_remove_unused"(ARRAY(SELECT DISTINCT "search_last_name" FROM deleted_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_last_names_on_rename"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "subscriber_last_names_add"(ARRAY[NEW."search_last_name"]);
  PERFORM "subscriber_last_names_remove_unused"(ARRAY[OLD."search_last_name"]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "subscriber_last_names_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "subscriber_last_names";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriber_last_names_on_insert" AFTER INSERT ON "subscribers"
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_last_names_on_insert"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_last_names_on_delete" AFTER DELETE ON "subscribers"
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_last_names_on_delete"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_last_names_on_rename" AFTER UPDATE OF "search_last_name" ON "subscribers"
  FOR EACH ROW WHEN (OLD."search_last_name" IS DISTINCT FROM NEW."search_last_name")
  EXECUTE FUNCTION "subscriber_last_names_on_rename"();
--> statement-breakpoint
CREATE TRIGGER "subscriber_last_names_on_truncate" AFTER TRUNCATE ON "subscribers"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscriber_last_names_clear"();
--> statement-breakpoint
ANALYZE "subscriber_last_names";
