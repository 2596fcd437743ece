import { type CollectionSummary, collectionListSchema } from '@back-office/contract/collections';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Every query of the collections lives under this key; each change refreshes them all. */
export const collectionsQueryKey = ['collections'] as const;

/**
 * `GET /api/collections` (Administrator): every collection, newest due date first, with its count of
 * lines not removed, their total in euros and its status.
 */
function getCollections(signal?: AbortSignal): Promise<CollectionSummary[]> {
  return apiRequest('/api/collections', { schema: collectionListSchema, ...(signal ? { signal } : {}) });
}

/** The history of SEPA direct-debit collections (not in the spec; docs/decisions/029). */
export function useCollections() {
  return useQuery(
    queryOptions({
      queryKey: [...collectionsQueryKey, 'list'],
      queryFn: ({ signal }) => getCollections(signal),
    }),
  );
}
