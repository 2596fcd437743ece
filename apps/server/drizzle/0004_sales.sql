CREATE TABLE "sale_counter" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_ref" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sale_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sale_id" integer NOT NULL,
	"position" integer NOT NULL,
	"product_id" integer NOT NULL,
	"product_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"euro_unit_price" numeric(12, 2) NOT NULL,
	"swiss_unit_price" numeric(12, 2) NOT NULL,
	"unit_price" numeric(12, 2) NOT NULL,
	"line_total" numeric(12, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sales_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ref" integer NOT NULL,
	"subscriber_id" integer NOT NULL,
	"full_name" text NOT NULL,
	"association" text DEFAULT '' NOT NULL,
	"currency_id" integer NOT NULL,
	"swiss_sale" boolean NOT NULL,
	"discount_percentage" numeric(9, 6) NOT NULL,
	"sub_total" numeric(12, 2) NOT NULL,
	"discount_amount" numeric(12, 2) NOT NULL,
	"donation" numeric(12, 2) NOT NULL,
	"delivery_charge" numeric(12, 2) NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"include_thanks" boolean NOT NULL,
	"include_payment_terms" boolean NOT NULL,
	"payment_term_days" integer NOT NULL,
	"addr1" text DEFAULT '' NOT NULL,
	"addr2" text DEFAULT '' NOT NULL,
	"addr3" text DEFAULT '' NOT NULL,
	"town" text DEFAULT '' NOT NULL,
	"postcode" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"order_number" text DEFAULT '' NOT NULL,
	"delivery_address" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"added_by" text NOT NULL,
	"added_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sale_lines" ADD CONSTRAINT "sale_lines_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_lines" ADD CONSTRAINT "sale_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sale_lines_sale_idx" ON "sale_lines" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "sale_lines_product_idx" ON "sale_lines" USING btree ("product_id","sale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_ref_unique" ON "sales" USING btree ("ref");--> statement-breakpoint
CREATE INDEX "sales_added_on_idx" ON "sales" USING btree ("added_on","id");--> statement-breakpoint
CREATE INDEX "sales_subscriber_idx" ON "sales" USING btree ("subscriber_id","added_on");