import type { Mandate } from '@back-office/contract/mandates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { mandatesQueryKey } from './get-mandates.ts';

/** `DELETE /api/mandates/{id}` (204); 409 `mandates.used` for a mandate used for a collection. */
function deleteMandate(mandate: Mandate): Promise<void> {
  return apiRequest(`/api/mandates/${mandate.id}`, { method: 'DELETE' });
}

/** Deletes a mandate never used; the subscriber's list is refreshed. */
export function useDeleteMandate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMandate,
    onSuccess: (_nothing, mandate) =>
      queryClient.invalidateQueries({ queryKey: mandatesQueryKey(mandate.subscriberId) }),
  });
}
