import { type LowStock, lowStockSchema } from '@back-office/contract/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { REFRESH_AFTER_CHANGE } from '../../../lib/query-client.ts';

/** The dashboard's refresh period (part 1 §9: every 30 seconds). */
export const DASHBOARD_REFRESH_MS = 30_000;

/** Query key of the Low Stock Products widget. */
export const lowStockProductsQueryKey = ['dashboard', 'low-stock-products'] as const;

/** `GET /api/dash/prods` -> `{keyedData: [{key: name, value: stock}]}` (part 1 §7 Dashboard). */
export function getLowStockProducts(signal?: AbortSignal): Promise<LowStock> {
  return apiRequest('/api/dash/prods', { schema: lowStockSchema, ...(signal ? { signal } : {}) });
}

/**
 * The low-stock products, reloaded every 30 s while the dashboard is on screen, when the window regains
 * focus and after any change made in this tab (part 1 §2 Dashboard);
 * leaving the screen removes the last observer, which stops the refresh.
 */
export function useLowStockProducts() {
  return useQuery(
    queryOptions({
      queryKey: lowStockProductsQueryKey,
      queryFn: ({ signal }) => getLowStockProducts(signal),
      refetchInterval: DASHBOARD_REFRESH_MS,
      // Back to the window: fresh figures at once, even within the 30 s of staleTime.
      refetchOnWindowFocus: 'always',
      meta: REFRESH_AFTER_CHANGE,
    }),
  );
}
