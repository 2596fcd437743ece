ALTER TABLE "login_failures" ADD COLUMN "address" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "login_failures_address_at_idx" ON "login_failures" USING btree ("address","at");--> statement-breakpoint
CREATE INDEX "login_failures_at_idx" ON "login_failures" USING btree ("at");--> statement-breakpoint
CREATE TABLE "login_lockouts" (
	"scope" text PRIMARY KEY NOT NULL,
	"locked_until" timestamp with time zone NOT NULL,
	"lockouts" integer NOT NULL,
	"last_locked_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "password_tokens_created_at_idx" ON "password_tokens" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_entity_type_check";--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_entity_type_check" CHECK ("audit_events"."entity_type" in ('user', 'product', 'reference_list_item', 'settings', 'sign_in'));--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_action_check";--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_action_check" CHECK ("audit_events"."action" in ('created', 'updated', 'deleted', 'role_changed', 'password_changed', 'sign_in_locked'));
