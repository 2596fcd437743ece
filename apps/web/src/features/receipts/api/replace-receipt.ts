import { type RegisteredReceipt, registeredReceiptSchema } from '@back-office/contract/receipts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ReceiptReasonInput } from './cancel-receipt.ts';
import { receiptsQueryKeyRoot } from './search-receipts.ts';

/**
 * `POST /api/receipts/{number}/replace` `{reason}` (Administrator) → 201 the NEW receipt: the old one is
 * cancelled and the next number is issued for the same gifts, with `replaces` = the old number. 409
 * `receipts.cancelled` when the old one was already cancelled; 400 naming `reason`.
 */
function replaceReceipt({ number, reason }: ReceiptReasonInput): Promise<RegisteredReceipt> {
  return apiRequest(`/api/receipts/${number}/replace`, {
    method: 'POST',
    body: { reason },
    schema: registeredReceiptSchema,
  });
}

/** Replaces a receipt, then refreshes the register (also after a refusal: someone else may have acted). */
export function useReplaceReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceReceipt,
    onSettled: () => queryClient.invalidateQueries({ queryKey: receiptsQueryKeyRoot }),
  });
}
