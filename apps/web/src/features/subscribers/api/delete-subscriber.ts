import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { subscriberSearchesKey } from './search-subscribers.ts';

/** `DELETE /api/subscribers/{id}`: hides the subscriber (donations, sales, history kept; part 2 §7). */
export function deleteSubscriber(id: number): Promise<void> {
  return apiRequest(`/api/subscribers/${id}`, { method: 'DELETE' });
}

/**
 * Deletes on the server; the list drops the row only once the server said yes (§4 Row delete). Other
 * searches kept in the cache are marked stale (not refetched now), so they drop it when shown again.
 */
export function useDeleteSubscriber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscriber,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriberSearchesKey, refetchType: 'none' }),
  });
}
