-- The search_* columns are collated "C" by hand (drizzle-kit cannot say so): prefix LIKE and ORDER BY then both use their btree indexes.
CREATE TABLE "subscriber_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriber_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subscriber_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_name" text NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "subscribers_name_idx";--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "search_first_name" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "search_last_name" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "search_town" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "search_postcode" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "search_association" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriber_history" ADD CONSTRAINT "subscriber_history_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriber_history_subscriber_idx" ON "subscriber_history" USING btree ("subscriber_id","at","id");--> statement-breakpoint
CREATE INDEX "subscribers_search_name_idx" ON "subscribers" USING btree ("search_last_name","search_first_name","id");--> statement-breakpoint
CREATE INDEX "subscribers_search_first_name_idx" ON "subscribers" USING btree ("search_first_name");--> statement-breakpoint
CREATE INDEX "subscribers_search_town_idx" ON "subscribers" USING btree ("search_town");--> statement-breakpoint
CREATE INDEX "subscribers_search_postcode_idx" ON "subscribers" USING btree ("search_postcode");--> statement-breakpoint
CREATE INDEX "subscribers_search_association_idx" ON "subscribers" USING btree ("search_association");--> statement-breakpoint
CREATE INDEX "subscribers_added_on_idx" ON "subscribers" USING btree ("added_on");