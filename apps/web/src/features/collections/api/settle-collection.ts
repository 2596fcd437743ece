import { type CollectionSummary, collectionSummarySchema } from '@back-office/contract/collections';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { collectionsQueryKey } from './get-collections.ts';

/**
 * `POST /api/collections/{id}/settle` (Administrator) → the summary, now settled: each pending line
 * became a donation in euros dated the due date. 409 `collections.not_exported` for a draft,
 * `collections.settled` the second time.
 */
function settleCollection(id: number): Promise<CollectionSummary> {
  return apiRequest(`/api/collections/${id}/settle`, { method: 'POST', schema: collectionSummarySchema });
}

/** Settles an exported collection; the collections are refreshed, after a refusal too. */
export function useSettleCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: settleCollection,
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionsQueryKey }),
  });
}
