import type { StockMovement, StockMovementKind, StockMovementQuery } from '@back-office/contract/products';
import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products, type StockMovementRow, stockMovements } from './products.table.ts';

/** Who moved the stock: a staff member (id and name at the time), or the system (`id` null). */
export type StockMover = { id: number | null; fullName: string };

/**
 * One change of a product's stock. `quantity` is signed: negative takes items out (a sale, a
 * negative adjustment), positive puts them back (a cancelled sale, a delivery).
 */
export type StockMove = {
  productId: number;
  quantity: number;
  kind: StockMovementKind;
  saleId?: number;
  reason?: string;
  user: StockMover;
};

/** The wire shape of a ledger row: optional fields left out when empty, `at` in ISO 8601. */
export function toStockMovementDto(row: StockMovementRow): StockMovement {
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind,
    quantity: row.quantity,
    stockAfter: row.stockAfter,
    ...(row.saleId === null ? {} : { saleId: row.saleId }),
    ...(row.reason === null ? {} : { reason: row.reason }),
    userName: row.userName,
  };
}

/**
 * THE way to change a product's stock (sales, cancelled sales, credit notes, adjustments, imports):
 * one atomic `UPDATE ... WHERE current_stock + quantity >= 0` and the ledger row, both in the
 * caller's transaction. Concurrent moves on one product queue on its row lock and each re-checks the
 * stock it finds, so twenty sales of the last ten items leave ten sales and a stock of 0; the
 * `CHECK (current_stock >= 0)` stands behind it. Deleted products still take cancelled items back.
 *
 * @returns the movement written; `undefined` when the product does not exist or holds fewer than
 *   `-quantity` items (nothing is written then; see {@link findStock} to say how many there are).
 */
export async function moveStock(db: Executor, move: StockMove): Promise<StockMovement | undefined> {
  const conditions = [eq(products.id, move.productId)];
  if (move.quantity < 0) conditions.push(gte(products.currentStock, -move.quantity));
  const [updated] = await db
    .update(products)
    .set({ currentStock: sql`${products.currentStock} + ${move.quantity}` })
    .where(and(...conditions))
    .returning({ stockAfter: products.currentStock });
  if (!updated) return undefined;
  const [row] = await db
    .insert(stockMovements)
    .values({
      productId: move.productId,
      kind: move.kind,
      quantity: move.quantity,
      stockAfter: updated.stockAfter,
      saleId: move.saleId ?? null,
      reason: move.reason ?? null,
      userId: move.user.id,
      userName: move.user.fullName,
    })
    .returning();
  if (!row) throw new Error('insert into stock_movements returned no row');
  return toStockMovementDto(row);
}

/** A product's name and stock as they are now (deleted ones too), or undefined for an unknown id. */
export async function findStock(db: Executor, productId: number) {
  const [row] = await db
    .select({ id: products.id, name: products.name, currentStock: products.currentStock })
    .from(products)
    .where(eq(products.id, productId));
  return row;
}

/** The stock ledger of the catalogue (`GET /api/products/{id}/movements`, adjustments). */
export function createStockMovementsRepository() {
  return {
    move: moveStock,
    findStock,

    /** One page of a product's movements, newest first, and how many it has in all. */
    list: async (db: Executor, productId: number, query: StockMovementQuery) => {
      const [total] = await db
        .select({ value: count() })
        .from(stockMovements)
        .where(eq(stockMovements.productId, productId));
      const rows = await db
        .select()
        .from(stockMovements)
        .where(eq(stockMovements.productId, productId))
        .orderBy(desc(stockMovements.id))
        .limit(query.listlength)
        .offset(query.listfrom - 1);
      return { count: total?.value ?? 0, models: rows.map(toStockMovementDto) };
    },
  };
}

export type StockMovementsRepository = ReturnType<typeof createStockMovementsRepository>;
