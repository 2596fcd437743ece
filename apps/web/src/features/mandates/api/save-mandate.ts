import {
  type Mandate,
  type MandateChanges,
  type MandateValues,
  mandateReadSchema,
} from '@back-office/contract/mandates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { mandatesQueryKey } from './get-mandates.ts';

/** What a save sends: a new mandate of `subscriberId`, or the changes of mandate `id`. */
export type SaveMandateRequest =
  | { subscriberId: number; id?: undefined; values: MandateValues }
  | { subscriberId: number; id: number; values: MandateChanges };

/**
 * `POST /api/subscribers/{id}/mandates` (201) or `PATCH /api/mandates/{id}` → the mandate; 400 naming
 * the field, 409 `mandates.rum_taken` naming `rum`, 409 `mandates.not_active`.
 */
function saveMandate(request: SaveMandateRequest): Promise<Mandate> {
  return request.id === undefined
    ? apiRequest(`/api/subscribers/${request.subscriberId}/mandates`, {
        method: 'POST',
        body: request.values,
        schema: mandateReadSchema,
      })
    : apiRequest(`/api/mandates/${request.id}`, {
        method: 'PATCH',
        body: request.values,
        schema: mandateReadSchema,
      });
}

/** Adds or changes a mandate; the subscriber's list is refreshed. */
export function useSaveMandate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveMandate,
    onSuccess: (_saved, request) =>
      queryClient.invalidateQueries({ queryKey: mandatesQueryKey(request.subscriberId) }),
  });
}
