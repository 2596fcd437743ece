import { type ReceiptChainCheck, receiptChainCheckSchema } from '@back-office/contract/receipts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `GET /api/receipts/verify` (any signed-in user) → `{ok, checked, firstBreak?: {number, reason}}`: the
 * server recomputes the hash chain of the whole register and checks that the numbers follow one another.
 */
function verifyReceipts(): Promise<ReceiptChainCheck> {
  return apiRequest('/api/receipts/verify', { schema: receiptChainCheckSchema });
}

/** Runs the check on demand (Verify the register); its outcome is the mutation's `data`. */
export function useVerifyReceipts() {
  return useMutation({ mutationFn: verifyReceipts });
}
