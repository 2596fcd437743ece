-- The folded last name of the subscriber a gift or a sale belongs to, kept on the gift and the sale with
-- an index (name, date, id): a donation or sales search by name reads its matches from that index alone,
-- and its first page takes each name's newest entries (docs/decisions/016). Reading the bearers' ids
-- first and looking up their gifts one by one took 43–50 ms a search under load at a million
-- subscribers. Kept by triggers in the transaction that changes the gift, the sale or the subscriber.
ALTER TABLE "donations" ADD COLUMN "subscriber_search_last_name" text COLLATE "C" NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "subscriber_search_last_name" text COLLATE "C" NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE "donations" AS "d" SET "subscriber_search_last_name" = "s"."search_last_name"
  FROM "subscribers" AS "s" WHERE "s"."id" = "d"."subscriber_id" AND "s"."search_last_name" <> '';--> statement-breakpoint
UPDATE "sales" AS "d" SET "subscriber_search_last_name" = "s"."search_last_name"
  FROM "subscribers" AS "s" WHERE "s"."id" = "d"."subscriber_id" AND "s"."search_last_name" <> '';--> statement-breakpoint
CREATE INDEX "donations_subscriber_last_name_idx" ON "donations" USING btree ("subscriber_search_last_name","donation_date","id");--> statement-breakpoint
CREATE INDEX "sales_subscriber_last_name_idx" ON "sales" USING btree ("subscriber_search_last_name","added_on","id");--> statement-breakpoint
-- Copies the subscriber's name onto a new gift or sale, or one moved to another subscriber (a merge).
-- The subscriber is read FOR SHARE: a rename being saved at the same time either commits first (and its
-- name is read) or waits for this transaction (and then renames this row too).
CREATE FUNCTION "subscriber_last_name_copy"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "name" text;
BEGIN
  SELECT "search_last_name" INTO "name" FROM "subscribers" WHERE "id" = NEW."subscriber_id" FOR SHARE;
  -- An unknown subscriber is refused by the foreign key, with its own error.
  NEW."subscriber_search_last_name" := coalesce("name", '');
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "donations_subscriber_last_name_on_insert" BEFORE INSERT ON "donations"
  FOR EACH ROW EXECUTE FUNCTION "subscriber_last_name_copy"();--> statement-breakpoint
CREATE TRIGGER "donations_subscriber_last_name_on_move" BEFORE UPDATE OF "subscriber_id", "subscriber_search_last_name" ON "donations"
  FOR EACH ROW EXECUTE FUNCTION "subscriber_last_name_copy"();--> statement-breakpoint
CREATE TRIGGER "sales_subscriber_last_name_on_insert" BEFORE INSERT ON "sales"
  FOR EACH ROW EXECUTE FUNCTION "subscriber_last_name_copy"();--> statement-breakpoint
CREATE TRIGGER "sales_subscriber_last_name_on_move" BEFORE UPDATE OF "subscriber_id", "subscriber_search_last_name" ON "sales"
  FOR EACH ROW EXECUTE FUNCTION "subscriber_last_name_copy"();--> statement-breakpoint
-- A renamed subscriber's gifts and sales take the new name.
CREATE FUNCTION "subscriber_last_name_on_rename"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "donations" SET "subscriber_search_last_name" = NEW."search_last_name" WHERE "subscriber_id" = NEW."id";
  UPDATE "sales" SET "subscriber_search_last_name" = NEW."search_last_name" WHERE "subscriber_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "subscriber_last_name_to_gifts_and_sales" AFTER UPDATE OF "search_last_name" ON "subscribers"
  FOR EACH ROW WHEN (OLD."search_last_name" IS DISTINCT FROM NEW."search_last_name")
  EXECUTE FUNCTION "subscriber_last_name_on_rename"();--> statement-breakpoint
ANALYZE "donations";--> statement-breakpoint
ANALYZE "sales";
