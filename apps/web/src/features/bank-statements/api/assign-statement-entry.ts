import {
  type AssignStatementEntry,
  type BankStatementEntry,
  bankStatementEntrySchema,
} from '@back-office/contract/bank-statements';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { statementEntriesQueryRoot } from './get-statement-entries.ts';

/**
 * `POST /api/bank-statements/entries/{id}/assign` (Administrator; docs/decisions/033) with
 * `{as: 'payment', saleId}`, `{as: 'donation', subscriberId?}` or `{dismiss: reason}` → the entry as
 * decided. 409 `bank_statements.decided` once decided; 409 `bank_statements.cannot_assign` with field
 * errors naming `saleId`, `subscriberId` or `currency`; a payment's own refusals (400 `sales.invalid`
 * naming `amount`, 404, 409).
 */
export function assignStatementEntry({
  id,
  decision,
}: {
  id: number;
  decision: AssignStatementEntry;
}): Promise<BankStatementEntry> {
  return apiRequest(`/api/bank-statements/entries/${id}/assign`, {
    method: 'POST',
    body: decision,
    schema: bankStatementEntrySchema,
  });
}

/** Decides an entry; every list of entries is refreshed (it leaves the queue for another tab). */
export function useAssignStatementEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignStatementEntry,
    onSettled: () => queryClient.invalidateQueries({ queryKey: statementEntriesQueryRoot }),
  });
}
