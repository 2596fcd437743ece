import { type Product, productSchema, type SaveProductInput } from '@back-office/contract/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/products {name, euroPrice, swissPrice, active, currentStock, minStockAlert}` returns the
 * created product (part 1 §7 Products).
 */
export function createProduct(input: SaveProductInput): Promise<Product> {
  return apiRequest('/api/products', {
    method: 'POST',
    body: {
      name: input.name,
      euroPrice: input.euroPrice,
      swissPrice: input.swissPrice,
      active: input.active,
      currentStock: input.currentStock,
      minStockAlert: input.minStockAlert,
    },
    schema: productSchema,
  });
}

/** Creates a product, then refreshes the list from the server (no optimistic edit: nothing shows before the server accepted it). */
export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
