-- Large exports (contract `exports`): the file an `exports.file` job writes, in pieces of about a
-- megabyte, kept for its author 24 hours; its state and progress are its job's.
CREATE TABLE "export_files" (
	"job_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"rows" integer,
	"bytes" integer,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "export_file_chunks" (
	"job_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" bytea NOT NULL,
	CONSTRAINT "export_file_chunks_job_id_seq_pk" PRIMARY KEY("job_id","seq")
);
--> statement-breakpoint
ALTER TABLE "export_files" ADD CONSTRAINT "export_files_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_files" ADD CONSTRAINT "export_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_file_chunks" ADD CONSTRAINT "export_file_chunks_job_id_export_files_job_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."export_files"("job_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_files_user_idx" ON "export_files" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "export_files_expires_idx" ON "export_files" USING btree ("expires_at");
