import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** `DELETE /api/sales/{id}` (part 2 §7): 204; the server puts the sale's items back in stock. */
export function deleteSale(id: number): Promise<void> {
  return apiRequest(`/api/sales/${id}`, { method: 'DELETE' });
}

/**
 * Deletes a sale; the list drops the row itself once it faded out. The products are refreshed (their
 * stock went back up).
 */
export function useDeleteSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSale,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
