import { type RecordPaymentInput, type Sale, saleSchema } from '@back-office/contract/sales';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { saleQueryKey } from './get-sale.ts';
import { salesQueryKeyRoot } from './search-sales.ts';

/**
 * `POST /api/sales/{id}/payments` `{date: YYYY-MM-DD, amount: units of the sale's currency}`: a payment
 * received for the sale's issued invoice (docs/decisions/032) → 201 with the sale. 400 naming `date`
 * (in the future) or `amount` ("At most 29,50 € remains to pay."); 409 `sales.invoice_not_issued`,
 * `sales.already_cancelled`.
 */
export function recordPayment({ id, ...input }: RecordPaymentInput & { id: number }): Promise<Sale> {
  return apiRequest(`/api/sales/${id}/payments`, { method: 'POST', body: input, schema: saleSchema });
}

/** Records a payment, then shows the sale as answered and refreshes the sales lists (payment status). */
export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordPayment,
    onSuccess: (sale) => queryClient.setQueryData(saleQueryKey(sale.id), sale),
    onSettled: () => queryClient.invalidateQueries({ queryKey: salesQueryKeyRoot }),
  });
}
