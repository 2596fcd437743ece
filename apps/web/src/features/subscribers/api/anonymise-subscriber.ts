import type { AnonymiseSubscriberInput } from '@back-office/contract/personal-data';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { subscriberSearchesKey } from './search-subscribers.ts';

/**
 * `POST /api/subscribers/{id}/anonymise` `{reason}` (Administrator; GDPR art. 17,
 * docs/decisions/019): erases the subscriber's identity for good and hides them; 204. 409
 * `subscribers.anonymised` when someone did it first; 400 naming `reason`.
 */
export function anonymiseSubscriber({
  id,
  ...input
}: AnonymiseSubscriberInput & { id: number }): Promise<void> {
  return apiRequest(`/api/subscribers/${id}/anonymise`, { method: 'POST', body: input });
}

/** Anonymises, then marks the kept searches stale: they drop the subscriber when shown again. */
export function useAnonymiseSubscriber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: anonymiseSubscriber,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriberSearchesKey, refetchType: 'none' }),
  });
}
