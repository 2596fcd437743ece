import { type CancelSaleInput, type CreditNote, creditNoteSchema } from '@back-office/contract/sales';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { salesQueryKeyRoot } from './search-sales.ts';

/**
 * `POST /api/sales/{id}/cancel` `{reason}`: cancels a sale whose invoice was issued with a credit
 * note (its own number); the server puts the items back in stock. 201 with the credit note; 409
 * `sales.already_cancelled` when someone cancelled it first.
 */
export function cancelSale({ id, ...input }: CancelSaleInput & { id: number }): Promise<CreditNote> {
  return apiRequest(`/api/sales/${id}/cancel`, { method: 'POST', body: input, schema: creditNoteSchema });
}

/** Cancels a sale, then refreshes the sales lists (status, credit note) and the products (stock). */
export function useCancelSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSale,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: salesQueryKeyRoot }),
        queryClient.invalidateQueries({ queryKey: productKeys.all }),
      ]);
    },
  });
}
