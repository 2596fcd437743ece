-- Exchange rates (docs/decisions/021): on `rate_date`, 1 euro was worth `rate` units of `currency`
-- (the ECB's convention), typed in (`manual`) or imported from the ECB's file (`ecb`). One per currency
-- and day, never changed once stored.
CREATE TABLE "exchange_rates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "exchange_rates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"currency" text NOT NULL,
	"rate_date" date NOT NULL,
	"rate" numeric(18, 6) NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "exchange_rates_currency_rate_date_key" UNIQUE("currency","rate_date"),
	CONSTRAINT "exchange_rates_currency_check" CHECK ("exchange_rates"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "exchange_rates_rate_check" CHECK ("exchange_rates"."rate" > 0),
	CONSTRAINT "exchange_rates_source_check" CHECK ("exchange_rates"."source" in ('manual', 'ecb'))
);
--> statement-breakpoint
CREATE INDEX "exchange_rates_rate_date_idx" ON "exchange_rates" USING btree ("rate_date","currency");
