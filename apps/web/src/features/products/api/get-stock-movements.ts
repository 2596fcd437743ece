import {
  type StockMovementList,
  stockMovementListSchema,
  stockMovementQuerySchema,
} from '@back-office/contract/products';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/**
 * `GET /api/products/{id}/movements?listfrom&listlength`: one page of the product's stock ledger,
 * newest first, with the total `count`. `listfrom` is 1-based.
 */
export function getStockMovements(
  productId: number,
  page: { listfrom: number; listlength: number },
  signal?: AbortSignal,
): Promise<StockMovementList> {
  const query = searchQueryString(stockMovementQuerySchema, page);
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
