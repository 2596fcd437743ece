import { type Mandate, mandateReadSchema } from '@back-office/contract/mandates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { mandatesQueryKey } from './get-mandates.ts';

/** `POST /api/mandates/{id}/revoke` `{reason}` → the revoked mandate; 409 `mandates.not_active`. */
function revokeMandate({ mandate, reason }: { mandate: Mandate; reason: string }): Promise<Mandate> {
  return apiRequest(`/api/mandates/${mandate.id}/revoke`, {
    method: 'POST',
    body: { reason },
    schema: mandateReadSchema,
  });
}

/** Revokes a mandate; the subscriber's list is refreshed. */
export function useRevokeMandate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeMandate,
    onSuccess: (_revoked, { mandate }) =>
      queryClient.invalidateQueries({ queryKey: mandatesQueryKey(mandate.subscriberId) }),
  });
}
