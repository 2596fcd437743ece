import { type Product, productListSchema } from '@back-office/contract/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * Query key of `GET /api/products`: the same key as the catalogue screen, so that saving or deleting a
 * sale (which moves stock) refreshes the products wherever they are shown.
 */
export const saleProductsQueryKey = ['products'] as const;

/** `GET /api/products` (part 2 §7 Sales: "Product ... lists come through other calls"). */
export function getSaleProducts(signal?: AbortSignal): Promise<Product[]> {
  return apiRequest('/api/products', { schema: productListSchema, ...(signal ? { signal } : {}) });
}

/** The products of the Sales search dropdown and the New Sale line adder (§2.5, §2.6). */
export function useSaleProducts() {
  return useQuery(
    queryOptions({ queryKey: saleProductsQueryKey, queryFn: ({ signal }) => getSaleProducts(signal) }),
  );
}
