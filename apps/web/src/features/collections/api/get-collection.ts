import { type CollectionDetail, collectionDetailSchema } from '@back-office/contract/collections';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { collectionsQueryKey } from './get-collections.ts';

/** Query key of one collection; its changes invalidate it (and the list, under the same root). */
export function collectionQueryKey(id: number) {
  return [...collectionsQueryKey, 'detail', id] as const;
}

/**
 * `GET /api/collections/{id}` (Administrator): the summary, the file version and the export and
 * settlement timestamps once known, and every line (removed ones too): debtor, RUM, masked IBAN
 * (`•••• 0189`), amount in euros, sequence type, status and reason code; 404 for an unknown id.
 */
function getCollection(id: number, signal?: AbortSignal): Promise<CollectionDetail> {
  return apiRequest(`/api/collections/${id}`, {
    schema: collectionDetailSchema,
    ...(signal ? { signal } : {}),
  });
}

/** One SEPA direct-debit collection with its lines (not in the spec; docs/decisions/029). */
export function useCollection(id: number) {
  return useQuery(
    queryOptions({
      queryKey: collectionQueryKey(id),
      queryFn: ({ signal }) => getCollection(id, signal),
    }),
  );
}
