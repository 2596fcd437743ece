import { type StockMovementList, stockMovementListSchema } from '@back-office/contract/products';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `GET /api/products/{id}/movements?listfrom&listlength`: one page of the product's stock ledger,
 * newest first, with the total `count`. `listfrom` is 1-based.
 */
export function getStockMovements(
  productId: number,
  page: { listfrom: number; listlength: number },
  signal?: AbortSignal,
): Promise<StockMovementList> {
  const query = new URLSearchParams({ listfrom: String(page.listfrom), listlength: String(page.listlength) });
  return apiRequest(`/api/products/${productId}/movements?${query}`, {
    schema: stockMovementListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** One page of a product's stock movements; the previous page stays shown while the next loads. */
export function useStockMovements(productId: number, page: { listfrom: number; listlength: number }) {
  return useQuery(
    queryOptions({
      queryKey: [...productKeys.movements(productId), page.listfrom, page.listlength],
      queryFn: ({ signal }) => getStockMovements(productId, page, signal),
      placeholderData: keepPreviousData,
    }),
  );
}
