-- Returns and rejections of direct debits (docs/decisions/030): a mandate whose collections the bank
-- returned is suspended (no longer collected), with the day and the reason.
ALTER TABLE "mandates" DROP CONSTRAINT "mandates_status_check";--> statement-breakpoint
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_status_check" CHECK ("mandates"."status" in ('active', 'revoked', 'expired', 'suspended'));--> statement-breakpoint
ALTER TABLE "mandates" ADD COLUMN "suspended_on" date;--> statement-breakpoint
ALTER TABLE "mandates" ADD COLUMN "suspended_reason" text;--> statement-breakpoint
ALTER TABLE "collection_lines" ADD COLUMN "returned_at" timestamp with time zone;
