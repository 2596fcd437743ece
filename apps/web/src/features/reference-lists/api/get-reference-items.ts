import { type ReferenceItem, referenceItemListSchema } from '@back-office/contract/reference-lists';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ReferenceListConfig } from '../reference-list-configs.ts';

/** Query key of one reference list, e.g. `['reference-lists', 'ctries']`. */
export function referenceItemsQueryKey(list: ReferenceListConfig) {
  return ['reference-lists', list.key] as const;
}

/** `GET /api/{list}`: the items in the server's order (part 1 §7 Reference data). */
export function getReferenceItems(list: ReferenceListConfig, signal?: AbortSignal): Promise<ReferenceItem[]> {
  return apiRequest(list.apiPath, { schema: referenceItemListSchema, ...(signal ? { signal } : {}) });
}

/** Query options of one reference list (part 1 §4: lists load on screen entry). */
export function referenceItemsQueryOptions(list: ReferenceListConfig) {
  return queryOptions({
    queryKey: referenceItemsQueryKey(list),
    queryFn: ({ signal }) => getReferenceItems(list, signal),
  });
}

/** One reference list (part 1 §2 Reference-data lists). */
export function useReferenceItems(list: ReferenceListConfig) {
  return useQuery(referenceItemsQueryOptions(list));
}
