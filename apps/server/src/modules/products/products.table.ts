import { boolean, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The catalogue (part 1 §3 Product). Prices are `numeric(12,2)` in units. A deleted product is kept
 * (`deletedAt`) so past sale lines that point at it stay whole (DESIGN.md soft deletes).
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
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [index('products_name_idx').on(table.name)],
);

export type ProductRow = typeof products.$inferSelect;
