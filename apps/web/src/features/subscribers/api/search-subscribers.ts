import {
  type SubscriberSearchRow,
  subscriberSearchQuerySchema,
  subscriberSearchResultSchema,
} from '@back-office/contract/subscribers';
import type { InfinitePage } from '../../../components/infinite-table.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { type SubscriberFilters, subscriberSearchQuery } from '../subscriber-filters.ts';

/** Query-key root of every subscriber search (invalidated after a save or delete). */
export const subscriberSearchesKey = ['subscribers', 'search'] as const;

/** Query key of one search. */
export function subscriberSearchKey(filters: SubscriberFilters) {
  return [...subscriberSearchesKey, filters] as const;
}

/**
 * `GET /api/subscribers/?firstname&name&assoc&tag&town&postcode&country&category&addedafter&addedbefore
 * &pmeth&copies&status&listfrom&listlength` -> `{count, models}` sorted by last then first name
 * (part 2 §7 Subscribers).
 */
export async function searchSubscribers(
  filters: SubscriberFilters,
  listfrom: number,
  listlength: number,
  signal?: AbortSignal,
): Promise<InfinitePage<SubscriberSearchRow>> {
  const query = searchQueryString(subscriberSearchQuerySchema, {
    ...subscriberSearchQuery(filters),
    listfrom,
    listlength,
  });
  const result = await apiRequest(`/api/subscribers/?${query}`, {
    schema: subscriberSearchResultSchema,
    ...(signal ? { signal } : {}),
  });
  return { count: result.count, countIsExact: result.countIsExact, rows: result.models };
}
