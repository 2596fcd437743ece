import {
  type ReferenceItem,
  type ReferenceListKey,
  referenceItemListSchema,
} from '@back-office/contract/reference-lists';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiRequest } from '../../../lib/api-client.ts';
import { sortFrench } from '../../../lib/french-text.ts';
import { notifyError } from '../../../lib/notify.ts';

/**
 * Where each reference list lives on the API and how its loading failure is worded (part 1 §7 Reference
 * data; §8 Lookup lists: "Houston - there was a problem getting the countries.").
 */
export const REFERENCE_LISTS = {
  subs: { path: '/api/subs', loadError: 'getting the subscription types' },
  cats: { path: '/api/cats', loadError: 'getting the categories' },
  ctries: { path: '/api/ctries', loadError: 'getting the countries' },
  pmethods: { path: '/api/pmethods', loadError: 'getting the payment methods' },
  currencies: { path: '/api/currencies', loadError: 'getting the currencies' },
  tags: { path: '/api/tags', loadError: 'getting the tags' },
} as const satisfies Record<ReferenceListKey, { path: `/api/${string}`; loadError: string }>;

/**
 * The one query-key factory of the reference lists: `all` covers every list, `list(kind)` one of them,
 * e.g. `['reference-lists', 'ctries']`. Every screen that shows a list reads it under this key, so an
 * edit on the reference-list screen refreshes it everywhere.
 */
export const referenceListKeys = {
  all: ['reference-lists'] as const,
  list: (kind: ReferenceListKey) => ['reference-lists', kind] as const,
};

/** `GET /api/{list}`: the items in the server's order (part 1 §7 Reference data). */
export function getReferenceList(kind: ReferenceListKey, signal?: AbortSignal): Promise<ReferenceItem[]> {
  return apiRequest(REFERENCE_LISTS[kind].path, {
    schema: referenceItemListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Query options of one reference list (part 1 §4: lists load on screen entry), cached by kind. */
export function referenceListQueryOptions(kind: ReferenceListKey) {
  return queryOptions({
    queryKey: referenceListKeys.list(kind),
    queryFn: ({ signal }) => getReferenceList(kind, signal),
  });
}

function byName(items: ReferenceItem[]): ReferenceItem[] {
  return sortFrench(items, (item) => item.name);
}

/**
 * One reference list as a query: `data` is `ReferenceItem[]` (`{id, name, order?, symbol?,
 * directDebit?}`) in the server's order, or sorted by name in French when `sort` is `'name'` (part 2
 * §2.4: Country and Category "list by fullName").
 */
export function useReferenceList(kind: ReferenceListKey, options: { sort?: 'server' | 'name' } = {}) {
  return useQuery({
    ...referenceListQueryOptions(kind),
    ...(options.sort === 'name' ? { select: byName } : {}),
  });
}

const EMPTY: ReferenceItem[] = [];

/**
 * The items of one reference list, `[]` until loaded; a failure shows "Houston - there was a problem
 * getting the ..." (part 1 §8 Lookup lists; part 2 §7 lookup fetches).
 */
export function useReferenceItems(kind: ReferenceListKey): ReferenceItem[] {
  const query = useReferenceList(kind);
  useNotifyReferenceListError(kind, query.isError);
  return query.data ?? EMPTY;
}

/** Shows the loading-failure toast of a reference list once `isError` turns true (part 1 §8). */
export function useNotifyReferenceListError(kind: ReferenceListKey, isError: boolean): void {
  useEffect(() => {
    if (isError) notifyError(REFERENCE_LISTS[kind].loadError);
  }, [isError, kind]);
}

/** Select options of a reference list: the id as the value, the name as the label. */
export function referenceItemOptions(items: readonly ReferenceItem[]): { value: string; label: string }[] {
  return items.map((item) => ({ value: String(item.id), label: item.name }));
}
