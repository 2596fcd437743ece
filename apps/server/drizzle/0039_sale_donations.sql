-- The "Dons" of a sale (part 2 §2.6) is a gift like any other: a donation of the buyer linked to the sale,
-- receipted like the others (CGI art. 200), and no longer a sale amount only.
ALTER TABLE "donations" ADD COLUMN "sale_id" integer;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_sale_unique" ON "donations" USING btree ("sale_id");
