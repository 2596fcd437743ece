import { type SubscribersByCountry, subscribersByCountrySchema } from '@back-office/contract/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { DASHBOARD_REFRESH_MS } from './get-low-stock-products.ts';

/** Query key of the Active Subscribers widget. */
export const activeSubscribersQueryKey = ['dashboard', 'active-subscribers'] as const;

/** `GET /api/dash/subs` -> `{labels, data}`: active subscribers per country (part 1 §7 Dashboard). */
export function getActiveSubscribers(signal?: AbortSignal): Promise<SubscribersByCountry> {
  return apiRequest('/api/dash/subs', { schema: subscribersByCountrySchema, ...(signal ? { signal } : {}) });
}

/** Active subscribers per country, reloaded every 30 s while the dashboard is on screen (part 1 §2). */
export function useActiveSubscribers() {
  return useQuery(
    queryOptions({
      queryKey: activeSubscribersQueryKey,
      queryFn: ({ signal }) => getActiveSubscribers(signal),
      refetchInterval: DASHBOARD_REFRESH_MS,
    }),
  );
}
