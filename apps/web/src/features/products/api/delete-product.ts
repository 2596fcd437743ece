import type { Product } from '@back-office/contract/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** `DELETE /api/products/{id}` (part 1 §7 Products; a soft delete on the server, so past sales keep their product). */
export function deleteProduct(id: number): Promise<void> {
  return apiRequest(`/api/products/${id}`, { method: 'DELETE' });
}

/** Removes a deleted product from the cached list once its row has faded out (part 1 §4 Row delete). */
export function useForgetDeletedProduct() {
  const queryClient = useQueryClient();
  return (id: number) => {
    queryClient.setQueryData<Product[]>(productKeys.all, (products) =>
      products?.filter((product) => product.id !== id),
    );
    return queryClient.invalidateQueries({ queryKey: productKeys.all });
  };
}

/** Deletes a product on the server; the list drops the row only after the server said yes. */
export function useDeleteProduct() {
  return useMutation({ mutationFn: deleteProduct });
}
