-- Imports keep the rows of their file for 30 days (docs/decisions/018), then are `expired`.
ALTER TABLE "imports" DROP CONSTRAINT "imports_status_check";--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_status_check" CHECK ("imports"."status" in ('uploaded', 'checked', 'queued', 'running', 'committed', 'failed', 'undone', 'expired'));
