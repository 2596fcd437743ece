import type { Executor } from '../../db/client.ts';
import type { StockMover } from '../products/stock-movements.repository.ts';
import type { SalesRepository } from './sales.repository.ts';

/** The quantity of each product over the lines, in product id order (so concurrent sales lock rows alike). */
export function quantitiesByProduct(lines: Array<{ productId: number; quantity: number }>) {
  const totals = new Map<number, { quantity: number; firstIndex: number }>();
  lines.forEach((line, index) => {
    const seen = totals.get(line.productId);
    totals.set(line.productId, {
      quantity: (seen?.quantity ?? 0) + line.quantity,
      firstIndex: seen?.firstIndex ?? index,
    });
  });
  return [...totals.entries()]
    .sort(([a], [b]) => a - b)
    .map(([productId, total]) => ({ productId, ...total }));
}

/**
 * Puts a sale's items back in stock, one `saleCancelled` movement per product naming the sale and
 * `user`, in product id order; for a deleted sale and for one cancelled by a credit note alike.
 */
export async function putSaleItemsBack(
  tx: Executor,
  repository: Pick<SalesRepository, 'moveStock'>,
  {
    saleId,
    lines,
    user,
  }: { saleId: number; lines: Array<{ productId: number; quantity: number }>; user: StockMover },
) {
  for (const { productId, quantity } of quantitiesByProduct(lines)) {
    await repository.moveStock(tx, { productId, quantity, kind: 'saleCancelled', saleId, user });
  }
}
