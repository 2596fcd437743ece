import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The catalogue (part 1 §3 Product). Prices are `numeric(12,2)` in units. A deleted product is kept
 * (`deletedAt`) so past sale lines that point at it stay whole (soft deletes in
 * docs/spec/design.md §Contract decisions the spec leaves open).
 * `currentStock` never goes below 0 (CHECK) and changes only with a row of {@link stockMovements};
 * `version` is bumped by every edit of the product so a stale edit is refused.
 */
export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    euroPrice: numeric({ precision: 12, scale: 2 }).notNull(),
    swissPrice: numeric({ precision: 12, scale: 2 }).notNull(),
    active: boolean().notNull().default(true),
    currentStock: integer().notNull().default(0),
    minStockAlert: integer().notNull().default(0),
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('products_name_idx').on(table.name),
    check('products_current_stock_not_negative', sql`${table.currentStock} >= 0`),
  ],
);

export type ProductRow = typeof products.$inferSelect;

/**
 * The stock ledger: every change of `products.current_stock`, written in the same transaction as it.
 * `quantity` is signed (items out are negative), `stockAfter` the stock right after. `saleId` is kept
 * as a plain number (no foreign key): a deleted sale's `saleCancelled` row still says which sale it was.
 * `userName` is the staff member's name at the time (null `userId` for the system).
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    kind: text({ enum: ['sale', 'saleCancelled', 'adjustment', 'import'] }).notNull(),
    quantity: integer().notNull(),
    stockAfter: integer().notNull(),
    saleId: integer(),
    reason: text(),
    userId: integer(),
    userName: text().notNull(),
  },
  (table) => [
    index('stock_movements_product_idx').on(table.productId, table.id),
    check(
      'stock_movements_kind_valid',
      sql`${table.kind} in ('sale', 'saleCancelled', 'adjustment', 'import')`,
    ),
    check('stock_movements_quantity_not_zero', sql`${table.quantity} <> 0`),
    check('stock_movements_stock_after_not_negative', sql`${table.stockAfter} >= 0`),
  ],
);

export type StockMovementRow = typeof stockMovements.$inferSelect;
