CREATE TABLE "subscriber_email_opt_outs" (
	"subscriber_id" integer PRIMARY KEY NOT NULL,
	"opted_out_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "brochure_email_subject" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "brochure_email_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriber_email_opt_outs" ADD CONSTRAINT "subscriber_email_opt_outs_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;