CREATE TABLE "jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"singleton_key" text,
	"repeat_every_ms" integer,
	"progress_done" integer,
	"progress_total" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"lease_seconds" integer DEFAULT 60 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"started_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "jobs_state_check" CHECK ("jobs"."state" in ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
);--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_after") WHERE "jobs"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_running_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."state" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_key_idx" ON "jobs" USING btree ("singleton_key") WHERE "jobs"."state" in ('queued', 'running');--> statement-breakpoint
-- Annual runs under way before the job runner existed carry on as jobs.
INSERT INTO "jobs" ("kind", "title", "payload", "singleton_key", "started_by")
SELECT 'receipts.annual-run', 'Annual receipts ' || "year", jsonb_build_object('runId', "id"), 'receipts.annual-run:' || "id", "started_by"
  FROM "annual_runs" WHERE "status" = 'running';
