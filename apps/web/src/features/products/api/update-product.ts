import { type Product, productSchema, type SaveProductInput } from '@back-office/contract/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { productsQueryKey } from './get-products.ts';

/** The fields of a product plus the id of the one being edited (part 1 §7 Products). */
export type UpdateProductVariables = SaveProductInput & { id: number };

/** `PATCH /api/products/{id}` with the fields plus `id` returns the updated product (part 1 §7 Products). */
export function updateProduct(input: UpdateProductVariables): Promise<Product> {
  return apiRequest(`/api/products/${input.id}`, {
    method: 'PATCH',
    body: {
      id: input.id,
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

/** Updates a product, then refreshes the list from the server (no optimistic edit, DESIGN.md). */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productsQueryKey }),
  });
}
