-- Recurring gifts by SEPA direct debit (EPC SEPA Core Direct Debit rulebook): an amount in euros collected
-- under a mandate every month, quarter, half year or year, on a day of the month from 1 to 28.
CREATE TABLE "plans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subscriber_id" integer NOT NULL,
	"mandate_id" integer NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"frequency" text NOT NULL,
	"day_of_month" integer NOT NULL,
	"start_on" date NOT NULL,
	"end_on" date,
	"category_id" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "plans_amount_check" CHECK ("plans"."amount" > 0),
	CONSTRAINT "plans_day_of_month_check" CHECK ("plans"."day_of_month" between 1 and 28),
	CONSTRAINT "plans_frequency_check" CHECK ("plans"."frequency" in ('monthly', 'quarterly', 'halfYearly', 'yearly')),
	CONSTRAINT "plans_status_check" CHECK ("plans"."status" in ('active', 'paused', 'ended')),
	CONSTRAINT "plans_dates_check" CHECK ("plans"."end_on" is null or "plans"."end_on" >= "plans"."start_on")
);--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_mandate_id_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."mandates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plans_subscriber_idx" ON "plans" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "plans_mandate_idx" ON "plans" USING btree ("mandate_id");--> statement-breakpoint
CREATE INDEX "plans_active_idx" ON "plans" USING btree ("day_of_month") WHERE "plans"."status" = 'active';
