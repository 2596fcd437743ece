import { type OverdueInvoices, overdueInvoicesSchema } from '@back-office/contract/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { REFRESH_AFTER_CHANGE } from '../../../lib/query-client.ts';
import { DASHBOARD_REFRESH_MS } from './get-low-stock-products.ts';

/** Query key of the Overdue invoices card. */
export const overdueInvoicesQueryKey = ['dashboard', 'overdue-invoices'] as const;

/**
 * `GET /api/dash/overdue` -> `{count, amounts: [{currencySymbol, amount}]}`: the issued invoices past
 * their due date and not paid in full, and what remains to pay on them per currency (not in the spec;
 * docs/decisions/032).
 */
export function getOverdueInvoices(signal?: AbortSignal): Promise<OverdueInvoices> {
  return apiRequest('/api/dash/overdue', { schema: overdueInvoicesSchema, ...(signal ? { signal } : {}) });
}

/** The overdue invoices, refreshed like the other widgets of the dashboard (every 30 s, on focus, after a change). */
export function useOverdueInvoices() {
  return useQuery(
    queryOptions({
      queryKey: overdueInvoicesQueryKey,
      queryFn: ({ signal }) => getOverdueInvoices(signal),
      refetchInterval: DASHBOARD_REFRESH_MS,
      refetchOnWindowFocus: 'always',
      meta: REFRESH_AFTER_CHANGE,
    }),
  );
}
