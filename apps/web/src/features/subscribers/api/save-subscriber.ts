import { type SaveSubscriber, type Subscriber, subscriberSchema } from '@back-office/contract/subscribers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { subscriberQueryKey } from './get-subscriber.ts';
import { subscriberSearchesKey } from './search-subscribers.ts';

/** Error code of a save based on a version someone else has replaced since (two people editing one record). */
export const STALE_SUBSCRIBER_CODE = 'subscribers.stale';

/**
 * Save (part 2 §7): `POST /api/subscribers` when the id is 0, otherwise `PATCH /api/subscribers/{id}`,
 * with the full field set, `version` and `hidden: false`; returns the saved record.
 */
export function saveSubscriber(input: SaveSubscriber): Promise<Subscriber> {
  const body = { ...input, hidden: false };
  if (input.id > 0) {
    return apiRequest(`/api/subscribers/${input.id}`, { method: 'PATCH', body, schema: subscriberSchema });
  }
  return apiRequest('/api/subscribers', { method: 'POST', body, schema: subscriberSchema });
}

/** Saves, then refreshes the searches and puts the saved record in the cache. */
export function useSaveSubscriber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSubscriber,
    onSuccess: (saved) => {
      queryClient.setQueryData(subscriberQueryKey(saved.id), saved);
      return queryClient.invalidateQueries({ queryKey: subscriberSearchesKey });
    },
  });
}
