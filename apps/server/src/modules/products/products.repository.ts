import type { Product, SaveProductInput, UpdateProductInput } from '@back-office/contract/products';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { foldSql } from '../../lib/search-text.ts';
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
    version: row.version,
  };
}

/** The catalogue fields of a product; never the stock, which moves only through the ledger. */
const toColumns = (input: Omit<SaveProductInput, 'currentStock'> | UpdateProductInput) => ({
  name: input.name,
  euroPrice: input.euroPrice.toFixed(2),
  swissPrice: input.swissPrice.toFixed(2),
  active: input.active,
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
          .orderBy(asc(foldSql(products.name)), asc(products.id))
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

    /** A new product with a stock of 0: the initial stock is a movement (see stock-movements.repository). */
    insert: async (db: Executor, input: SaveProductInput) => {
      const [row] = await db.insert(products).values(toColumns(input)).returning();
      if (!row) throw new Error('insert into products returned no row');
      return toProductDto(row);
    },

    /** Saves the catalogue fields only if the stored version is still `expectedVersion`, and bumps it. */
    update: async (db: Executor, id: number, expectedVersion: number, input: UpdateProductInput) => {
      const [row] = await db
        .update(products)
        .set({ ...toColumns(input), version: sql`${products.version} + 1`, updatedAt: sql`now()` })
        .where(and(eq(products.id, id), eq(products.version, expectedVersion), notDeleted))
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
