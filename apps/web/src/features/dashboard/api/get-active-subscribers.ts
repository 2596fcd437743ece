import { type SubscribersByCountry, subscribersByCountrySchema } from '@back-office/contract/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { REFRESH_AFTER_CHANGE } from '../../../lib/query-client.ts';
import { DASHBOARD_REFRESH_MS } from './get-low-stock-products.ts';

/** Query key of the Active Subscribers widget. */
export const activeSubscribersQueryKey = ['dashboard', 'active-subscribers'] as const;

/** `GET /api/dash/subs` -> `{labels, data}`: active subscribers per country (part 1 §7 Dashboard). */
export function getActiveSubscribers(signal?: AbortSignal): Promise<SubscribersByCountry> {
  return apiRequest('/api/dash/subs', { schema: subscribersByCountrySchema, ...(signal ? { signal } : {}) });
}

/**
 * Active subscribers per country, reloaded every 30 s while the dashboard is on screen, when the window
 * regains focus and after any change made in this tab (part 1 §2 Dashboard).
 */
export function useActiveSubscribers() {
  return useQuery(
    queryOptions({
      queryKey: activeSubscribersQueryKey,
      queryFn: ({ signal }) => getActiveSubscribers(signal),
      refetchInterval: DASHBOARD_REFRESH_MS,
      // Back to the window: fresh figures at once, even within the 30 s of staleTime.
      refetchOnWindowFocus: 'always',
      meta: REFRESH_AFTER_CHANGE,
    }),
  );
}
