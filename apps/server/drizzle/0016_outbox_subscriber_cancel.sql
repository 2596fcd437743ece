ALTER TABLE "outbox_messages" ADD COLUMN "subscriber_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outbox_messages_pending_subscriber_idx" ON "outbox_messages" USING btree ("subscriber_id") WHERE "outbox_messages"."status" = 'pending' and "outbox_messages"."subscriber_id" is not null;