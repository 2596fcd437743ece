CREATE TABLE "audit_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"occurred_at" timestamp with time zone NOT NULL,
	"actor_user_id" integer,
	"actor_name" text,
	"actor_email" text,
	"entity_type" text NOT NULL,
	"entity_list" text,
	"entity_id" integer,
	"entity_label" text NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "audit_events_entity_type_check" CHECK ("audit_events"."entity_type" in ('user', 'product', 'reference_list_item', 'settings')),
	CONSTRAINT "audit_events_action_check" CHECK ("audit_events"."action" in ('created', 'updated', 'deleted', 'role_changed', 'password_changed'))
);
--> statement-breakpoint
CREATE INDEX "audit_events_occurred_at_idx" ON "audit_events" USING btree ("occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_entity_idx" ON "audit_events" USING btree ("entity_type","entity_id");