import { type ReferenceItem, referenceItemListSchema } from '@back-office/contract/reference-lists';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiRequest } from '../../../lib/api-client.ts';
import { notifyError } from '../../../lib/notify.ts';

/**
 * The reference lists the subscriber screens choose from (part 2 §7 "Lookup fetches for categories,
 * subscription types, currencies, tag names, countries, payment methods"; part 1 §7 Reference data).
 * Same paths and cache keys as the reference-list screens, so both share one cache.
 */
export const LOOKUPS = {
  categories: { path: '/api/cats', key: 'cats', error: 'getting the categories' },
  subscriptionTypes: { path: '/api/subs', key: 'subs', error: 'getting the subscription types' },
  currencies: { path: '/api/currencies', key: 'currencies', error: 'getting the currencies' },
  tags: { path: '/api/tags', key: 'tags', error: 'getting the tags' },
  countries: { path: '/api/ctries', key: 'ctries', error: 'getting the countries' },
  paymentMethods: { path: '/api/pmethods', key: 'pmethods', error: 'getting the payment methods' },
} as const;

export type LookupName = keyof typeof LOOKUPS;

/** `GET /api/{list}` of one lookup. */
export function getLookup(name: LookupName, signal?: AbortSignal): Promise<ReferenceItem[]> {
  return apiRequest(LOOKUPS[name].path, { schema: referenceItemListSchema, ...(signal ? { signal } : {}) });
}

/** Query options of one lookup (cache key `['reference-lists', key]`). */
export function lookupQueryOptions(name: LookupName) {
  return queryOptions({
    queryKey: ['reference-lists', LOOKUPS[name].key] as const,
    queryFn: ({ signal }) => getLookup(name, signal),
  });
}

/** One lookup list; a failure shows "Houston - there was a problem getting the ..." (§8). */
export function useLookup(name: LookupName): ReferenceItem[] {
  const query = useQuery(lookupQueryOptions(name));
  useEffect(() => {
    if (query.isError) notifyError(LOOKUPS[name].error);
  }, [query.isError, name]);
  return query.data ?? EMPTY;
}

const EMPTY: ReferenceItem[] = [];

/** Select options of a lookup: id as the value, name as the label. */
export function lookupOptions(items: readonly ReferenceItem[]): { value: string; label: string }[] {
  return items.map((item) => ({ value: String(item.id), label: item.name }));
}
