CREATE TABLE "stock_movements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stock_movements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"stock_after" integer NOT NULL,
	"sale_id" integer,
	"reason" text,
	"user_id" integer,
	"user_name" text NOT NULL,
	CONSTRAINT "stock_movements_kind_valid" CHECK ("stock_movements"."kind" in ('sale', 'saleCancelled', 'adjustment', 'import')),
	CONSTRAINT "stock_movements_quantity_not_zero" CHECK ("stock_movements"."quantity" <> 0),
	CONSTRAINT "stock_movements_stock_after_not_negative" CHECK ("stock_movements"."stock_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_product_idx" ON "stock_movements" USING btree ("product_id","id");--> statement-breakpoint
-- Opening balance of the ledger: one adjustment per product holding stock, so that the movements of
-- a product add up to its stock. A stock already below 0 (sales used to take more than there was) is
-- brought back to 0, and the ledger says so, before the CHECK below can hold.
INSERT INTO "stock_movements" ("product_id", "at", "kind", "quantity", "stock_after", "reason", "user_name")
SELECT "id", now(), 'adjustment', "current_stock", "current_stock", 'Stock initial (reprise du stock existant)', 'Système'
FROM "products" WHERE "current_stock" > 0;--> statement-breakpoint
INSERT INTO "stock_movements" ("product_id", "at", "kind", "quantity", "stock_after", "reason", "user_name")
SELECT "id", now(), 'adjustment', -"current_stock", 0, 'Stock négatif (' || "current_stock" || ') remis à 0 à la mise en place des mouvements de stock', 'Système'
FROM "products" WHERE "current_stock" < 0;--> statement-breakpoint
UPDATE "products" SET "current_stock" = 0 WHERE "current_stock" < 0;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_current_stock_not_negative" CHECK ("products"."current_stock" >= 0);