CREATE TABLE "annual_run_items" (
	"run_id" integer NOT NULL,
	"subscriber_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"done_at" timestamp with time zone,
	CONSTRAINT "annual_run_items_run_id_subscriber_id_pk" PRIMARY KEY("run_id","subscriber_id")
);
--> statement-breakpoint
CREATE TABLE "annual_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "annual_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"year" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"started_by" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "annual_run_items" ADD CONSTRAINT "annual_run_items_run_id_annual_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."annual_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annual_run_items" ADD CONSTRAINT "annual_run_items_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annual_run_items_pending_idx" ON "annual_run_items" USING btree ("run_id","status");