import { type Sale, saleSchema } from '@back-office/contract/sales';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { saleQueryKey } from './get-sale.ts';
import { salesQueryKeyRoot } from './search-sales.ts';

/**
 * `POST /api/sales/{id}/reminders`: emails the buyer a payment reminder of the overdue invoice, the
 * invoice attached (docs/decisions/034) → 201 with the sale (`reminderLevel`, `lastReminderOn`). 409
 * `sales.not_overdue`, `sales.reminder_too_soon` (names the first day allowed), `sales.no_email`.
 */
export function sendReminder(id: number): Promise<Sale> {
  return apiRequest(`/api/sales/${id}/reminders`, { method: 'POST', schema: saleSchema });
}

/** Sends a reminder, then shows the sale as answered and refreshes the sales lists. */
export function useSendReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendReminder,
    onSuccess: (sale) => queryClient.setQueryData(saleQueryKey(sale.id), sale),
    onSettled: () => queryClient.invalidateQueries({ queryKey: salesQueryKeyRoot }),
  });
}
