import { type Product, productListSchema } from '@back-office/contract/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The one query-key factory of the products: `all` is the catalogue list and the prefix of everything
 * cached about products (a product's stock movements too), so invalidating it after a save, a stock
 * adjustment or a sale (which moves stock) refreshes the products wherever they are shown.
 */
export const productKeys = {
  all: ['products'] as const,
  list: () => productKeys.all,
  movements: (productId: number) => [...productKeys.all, productId, 'movements'] as const,
};

/** `GET /api/products`, sorted by name by the server (part 1 §7 Products). */
export function getProducts(signal?: AbortSignal): Promise<Product[]> {
  return apiRequest('/api/products', { schema: productListSchema, ...(signal ? { signal } : {}) });
}

/** Query options of the products list (part 1 §4: lists load on screen entry). */
export function productsQueryOptions() {
  return queryOptions({ queryKey: productKeys.list(), queryFn: ({ signal }) => getProducts(signal) });
}

/**
 * The products as a query, `data` a `Product[]` (`{id, name, euroPrice, swissPrice, active, currentStock,
 * minStockAlert, ...}`): the catalogue (part 1 §2 Products), the Sales search dropdown and the New Sale
 * line adder (part 2 §2.5, §2.6).
 */
export function useProducts() {
  return useQuery(productsQueryOptions());
}
