import { type Product, productSchema, type UpdateProductInput } from '@back-office/contract/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The catalogue fields of a product, the id of the one being edited and the `version` it was read
 * at. Never the stock: it changes only through adjustments and sales.
 */
export type UpdateProductVariables = Omit<UpdateProductInput, 'id' | 'currentStock'> & { id: number };

/**
 * `PATCH /api/products/{id}` with the fields, `id` and `version` returns the updated product (part 1
 * §7 Products); 409 `products.stale` when someone saved it since it was read.
 */
export function updateProduct(input: UpdateProductVariables): Promise<Product> {
  return apiRequest(`/api/products/${input.id}`, {
    method: 'PATCH',
    body: {
      id: input.id,
      name: input.name,
      euroPrice: input.euroPrice,
      swissPrice: input.swissPrice,
      active: input.active,
      minStockAlert: input.minStockAlert,
      version: input.version,
    },
    schema: productSchema,
  });
}

/** Updates a product, then refreshes the list from the server (no optimistic edit: nothing shows before the server accepted it). */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
