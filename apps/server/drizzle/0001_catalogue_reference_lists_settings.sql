CREATE TABLE "products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"euro_price" numeric(12, 2) NOT NULL,
	"swiss_price" numeric(12, 2) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"current_stock" integer DEFAULT 0 NOT NULL,
	"min_stock_alert" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "applied_seeds" (
	"name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "countries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"order" integer DEFAULT 100 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "currencies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "currencies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"symbol" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_methods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"direct_debit" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscription_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"organisation_name" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"email_sender_name" text DEFAULT '' NOT NULL,
	"email_sender_address" text DEFAULT '' NOT NULL,
	"siren_or_rna" text DEFAULT '' NOT NULL,
	"sepa_creditor_id" text DEFAULT '' NOT NULL,
	"signatory_name" text DEFAULT '' NOT NULL,
	"signatory_title" text DEFAULT '' NOT NULL,
	"organisation_purpose" text DEFAULT '' NOT NULL,
	"receipt_statement" text DEFAULT '' NOT NULL,
	"invoice_footer" text DEFAULT '' NOT NULL,
	"payment_terms_text" text DEFAULT '' NOT NULL,
	"logo" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriber_tags" (
	"subscriber_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "subscriber_tags_subscriber_id_tag_id_pk" PRIMARY KEY("subscriber_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscribers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text DEFAULT '' NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"mobile" text DEFAULT '' NOT NULL,
	"fax" text DEFAULT '' NOT NULL,
	"address1" text DEFAULT '' NOT NULL,
	"address2" text DEFAULT '' NOT NULL,
	"address3" text DEFAULT '' NOT NULL,
	"town" text DEFAULT '' NOT NULL,
	"postcode" text DEFAULT '' NOT NULL,
	"billing_address" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"association" text DEFAULT '' NOT NULL,
	"inactive" boolean DEFAULT false NOT NULL,
	"inactive_reason" text DEFAULT '' NOT NULL,
	"rum" text DEFAULT '' NOT NULL,
	"country_id" integer,
	"payment_method_id" integer,
	"category_id" integer,
	"subscription_type_id" integer,
	"currency_id" integer NOT NULL,
	"recommended_by" text DEFAULT '' NOT NULL,
	"copies" integer DEFAULT 0 NOT NULL,
	"bank" text DEFAULT '' NOT NULL,
	"iban" text DEFAULT '' NOT NULL,
	"amount" numeric(12, 2) DEFAULT '0' NOT NULL,
	"start_date" date,
	"end_date" date,
	"on_mail_chimp_list" boolean DEFAULT false NOT NULL,
	"newsletter_email" text DEFAULT '' NOT NULL,
	"added_by" text DEFAULT '' NOT NULL,
	"added_on" timestamp with time zone DEFAULT now() NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriber_tags" ADD CONSTRAINT "subscriber_tags_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriber_tags" ADD CONSTRAINT "subscriber_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_subscription_type_id_subscription_types_id_fk" FOREIGN KEY ("subscription_type_id") REFERENCES "public"."subscription_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_unique" ON "categories" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "countries_name_unique" ON "countries" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_name_unique" ON "currencies" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_name_unique" ON "payment_methods" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_types_name_unique" ON "subscription_types" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "tags_name_unique" ON "tags" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "subscriber_tags_tag_idx" ON "subscriber_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "subscribers_name_idx" ON "subscribers" USING btree (lower("last_name"),lower("first_name"));--> statement-breakpoint
CREATE INDEX "subscribers_country_idx" ON "subscribers" USING btree ("country_id");--> statement-breakpoint
CREATE INDEX "subscribers_category_idx" ON "subscribers" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "subscribers_payment_method_idx" ON "subscribers" USING btree ("payment_method_id");--> statement-breakpoint
CREATE INDEX "subscribers_subscription_type_idx" ON "subscribers" USING btree ("subscription_type_id");--> statement-breakpoint
CREATE INDEX "subscribers_currency_idx" ON "subscribers" USING btree ("currency_id");