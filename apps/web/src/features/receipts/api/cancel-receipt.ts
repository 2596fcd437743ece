import {
  type CancelReceipt,
  type RegisteredReceipt,
  registeredReceiptSchema,
} from '@back-office/contract/receipts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { receiptsQueryKeyRoot } from './search-receipts.ts';

/** What a cancel or a replace sends: the receipt's number and why (printed on the cancelled receipt). */
export type ReceiptReasonInput = CancelReceipt & { number: number };

/**
 * `POST /api/receipts/{number}/cancel` `{reason}` (Administrator) → 200 the receipt, now cancelled
 * (printed ANNULÉ with the reason; its gifts can be receipted again). 409 `receipts.cancelled` whose
 * `detail` says when and by whom when it was already cancelled; 400 naming `reason`.
 */
function cancelReceipt({ number, reason }: ReceiptReasonInput): Promise<RegisteredReceipt> {
  return apiRequest(`/api/receipts/${number}/cancel`, {
    method: 'POST',
    body: { reason },
    schema: registeredReceiptSchema,
  });
}

/** Cancels a receipt, then refreshes the register (also after a refusal: someone else may have acted). */
export function useCancelReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelReceipt,
    onSettled: () => queryClient.invalidateQueries({ queryKey: receiptsQueryKeyRoot }),
  });
}
