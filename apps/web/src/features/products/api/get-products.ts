import { type Product, productListSchema } from '@back-office/contract/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of the products list (part 1 §7 Products). */
export const productsQueryKey = ['products'] as const;

/** `GET /api/products`, sorted by name by the server (part 1 §7 Products). */
export function getProducts(signal?: AbortSignal): Promise<Product[]> {
  return apiRequest('/api/products', { schema: productListSchema, ...(signal ? { signal } : {}) });
}

/** Query options of the products list (part 1 §4: lists load on screen entry). */
export function productsQueryOptions() {
  return queryOptions({ queryKey: productsQueryKey, queryFn: ({ signal }) => getProducts(signal) });
}

/** The products list (part 1 §2 Products). */
export function useProducts() {
  return useQuery(productsQueryOptions());
}
