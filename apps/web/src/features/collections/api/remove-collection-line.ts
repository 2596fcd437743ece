import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { collectionsQueryKey } from './get-collections.ts';

/** Which line of which collection to remove. */
export type RemoveCollectionLineInput = { collectionId: number; lineId: number };

/**
 * `DELETE /api/collections/{id}/lines/{lineId}` (Administrator) → 204: the line stays in the draft as
 * removed (building the draft again does not bring it back); 409 `collections.not_draft` once exported.
 */
function removeCollectionLine({ collectionId, lineId }: RemoveCollectionLineInput): Promise<void> {
  return apiRequest(`/api/collections/${collectionId}/lines/${lineId}`, { method: 'DELETE' });
}

/** Removes a line from a draft; the collection and the list are refreshed, after a refusal too. */
export function useRemoveCollectionLine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCollectionLine,
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionsQueryKey }),
  });
}
