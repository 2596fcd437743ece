import { createErrorFactory } from '../../lib/errors.ts';

export const createProductNotFoundError = createErrorFactory({
  code: 'products.not_found',
  status: 404,
  title: 'Not Found',
});

export const createProductIdMismatchError = createErrorFactory({
  code: 'validation.id_mismatch',
  status: 400,
  title: 'Bad Request',
});

/** A product edit based on a version older than the stored one (someone saved in between). */
export const createStaleProductError = createErrorFactory({
  code: 'products.stale',
  status: 409,
  title: 'Conflict',
});

/**
 * A sale or an adjustment would take more items than the product holds. The detail names the
 * product and how many are available; `errors` names the field (`items.N.quantity`, `quantity`).
 */
export const createInsufficientStockError = createErrorFactory({
  code: 'products.insufficient_stock',
  status: 409,
  title: 'Conflict',
});

/** The field error and detail of an insufficient stock: `Only 3 of "Agenda" in stock (5 asked).` */
export function insufficientStock(
  product: { name: string; currentStock: number },
  asked: number,
  path: string,
) {
  const message = `Only ${product.currentStock} of "${product.name}" in stock (${asked} asked).`;
  return createInsufficientStockError(message, [{ path, message }]);
}
