-- A merged subscriber points at the one it was merged into: its old id leads there.
ALTER TABLE "subscribers" ADD COLUMN "merged_into_id" integer;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_merged_into_id_subscribers_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscribers_merged_into_idx" ON "subscribers" USING btree ("merged_into_id") WHERE "subscribers"."merged_into_id" IS NOT NULL;--> statement-breakpoint
-- The pairs of likely duplicates the last scan of the register found.
CREATE TABLE "duplicate_pairs" (
	"a_id" integer NOT NULL,
	"b_id" integer NOT NULL,
	"score" real NOT NULL,
	"reasons" jsonb NOT NULL,
	CONSTRAINT "duplicate_pairs_a_id_b_id_pk" PRIMARY KEY("a_id","b_id")
);
--> statement-breakpoint
CREATE INDEX "duplicate_pairs_score_idx" ON "duplicate_pairs" USING btree ("score" DESC,"a_id","b_id");--> statement-breakpoint
CREATE TABLE "duplicate_scans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "duplicate_scans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"finished_at" timestamp with time zone NOT NULL,
	"pairs" integer NOT NULL
);
--> statement-breakpoint
-- Each merge, with both records as they were and what moved, so that it can be undone.
CREATE TABLE "subscriber_merges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriber_merges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"keep_id" integer NOT NULL,
	"merge_id" integer NOT NULL,
	"keep_before" jsonb NOT NULL,
	"merge_before" jsonb NOT NULL,
	"moved" jsonb NOT NULL,
	"keep_version" integer NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"merged_by" text NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "subscriber_merges" ADD CONSTRAINT "subscriber_merges_keep_id_subscribers_id_fk" FOREIGN KEY ("keep_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriber_merges" ADD CONSTRAINT "subscriber_merges_merge_id_subscribers_id_fk" FOREIGN KEY ("merge_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriber_merges_merge_idx" ON "subscriber_merges" USING btree ("merge_id");--> statement-breakpoint
CREATE INDEX "subscriber_merges_keep_idx" ON "subscriber_merges" USING btree ("keep_id");
