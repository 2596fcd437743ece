CREATE TABLE "mail_sends" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_sends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"user_name" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "send_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "from_organisation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "outbox_messages" SET "from_organisation" = true WHERE "subscriber_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_messages_send_idx" ON "outbox_messages" USING btree ("send_id") WHERE "outbox_messages"."send_id" is not null;
