-- Imports: an uploaded file, its rows, what the dry run found and what the commit wrote (undo reads it).
CREATE TABLE "imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"columns" jsonb NOT NULL,
	"row_count" integer NOT NULL,
	"mapping" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"dry_valid" integer,
	"dry_invalid" integer,
	"dry_duplicates" integer,
	"job_id" integer,
	"processed" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"merged" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"committed_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	CONSTRAINT "imports_status_check" CHECK ("imports"."status" in ('uploaded', 'checked', 'queued', 'running', 'committed', 'failed', 'undone'))
);
--> statement-breakpoint
CREATE INDEX "imports_created_at_idx" ON "imports" USING btree ("created_at");--> statement-breakpoint
CREATE TABLE "import_rows" (
	"import_id" integer NOT NULL,
	"row_number" integer NOT NULL,
	"cells" jsonb NOT NULL,
	"status" text,
	"errors" jsonb,
	"match_id" integer,
	"match_reasons" jsonb,
	"decision" text,
	"action" text,
	"record_id" integer,
	"record_version" integer,
	"before" jsonb,
	CONSTRAINT "import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_rows_status_idx" ON "import_rows" USING btree ("import_id","status","row_number");
--> statement-breakpoint
-- Duplicates of an imported or new subscriber are found by email and by IBAN.
CREATE INDEX "subscribers_email_idx" ON "subscribers" USING btree (lower("email")) WHERE "subscribers"."email" <> '';--> statement-breakpoint
CREATE INDEX "subscribers_iban_idx" ON "subscribers" USING btree ("iban") WHERE "subscribers"."iban" <> '';
--> statement-breakpoint
-- Deleting subscribers (an import undone) checks annual_run_items' reference through an index, not a scan per row.
CREATE INDEX "annual_run_items_subscriber_idx" ON "annual_run_items" USING btree ("subscriber_id");
