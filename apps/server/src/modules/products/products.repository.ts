import type { Product, SaveProductInput } from '@back-office/contract/products';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type ProductRow, products } from './products.table.ts';

/** The wire shape of a product: prices from `numeric` strings to numbers in units. */
export function toProductDto(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    euroPrice: Number(row.euroPrice),
    swissPrice: Number(row.swissPrice),
    active: row.active,
    currentStock: row.currentStock,
    minStockAlert: row.minStockAlert,
  };
}

const toColumns = (input: SaveProductInput) => ({
  name: input.name,
  euroPrice: input.euroPrice.toFixed(2),
  swissPrice: input.swissPrice.toFixed(2),
  active: input.active,
  currentStock: input.currentStock,
  minStockAlert: input.minStockAlert,
});

const notDeleted = isNull(products.deletedAt);

/** All SQL of the catalogue (part 1 §7 Products). Deleted products are never listed. */
export function createProductsRepository() {
  return {
    list: async (db: Executor) =>
      (
        await db
          .select()
          .from(products)
          .where(notDeleted)
          .orderBy(asc(sql`lower(${products.name})`), asc(products.id))
      ).map(toProductDto),

    /** `forUpdate` locks the row until the transaction ends (so an audited "before" stays true). */
    findById: async (db: Executor, id: number, { forUpdate = false }: { forUpdate?: boolean } = {}) => {
      const query = db
        .select()
        .from(products)
        .where(and(eq(products.id, id), notDeleted));
      const [row] = forUpdate ? await query.for('update') : await query;
      return row ? toProductDto(row) : undefined;
    },

    insert: async (db: Executor, input: SaveProductInput) => {
      const [row] = await db.insert(products).values(toColumns(input)).returning();
      if (!row) throw new Error('insert into products returned no row');
      return toProductDto(row);
    },

    update: async (db: Executor, id: number, input: SaveProductInput) => {
      const [row] = await db
        .update(products)
        .set({ ...toColumns(input), updatedAt: sql`now()` })
        .where(and(eq(products.id, id), notDeleted))
        .returning();
      return row ? toProductDto(row) : undefined;
    },

    /** Soft delete: the row stays for the sale lines that point at it. */
    softDelete: async (db: Executor, id: number) => {
      const rows = await db
        .update(products)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(products.id, id), notDeleted))
        .returning({ id: products.id });
      return rows.length > 0;
    },
  };
}

export type ProductsRepository = ReturnType<typeof createProductsRepository>;
