import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { SalesEmailFilters } from '../sales-filters.ts';

/** The `POST /api/sales/email/list` body (part 2 §3 "Sales email-list payload"). */
export type EmailSaleSubscribersInput = SalesEmailFilters & { subject: string; message: string };

/**
 * `POST /api/sales/email/list`: one email to each subscriber behind the matching sales (part 2 §2.5,
 * §7). "The response is not used beyond success" (§7), so its body is not read.
 */
export function emailSaleSubscribers(input: EmailSaleSubscribersInput): Promise<void> {
  return apiRequest('/api/sales/email/list', { method: 'POST', body: input });
}

/** Mutation hook over {@link emailSaleSubscribers}. */
export function useEmailSaleSubscribers() {
  return useMutation({ mutationFn: emailSaleSubscribers });
}
