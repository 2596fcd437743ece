import {
  type MergeSubscribers,
  type SubscriberMerge,
  subscriberMergeSchema,
} from '@back-office/contract/duplicates';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { duplicatesQueryKey } from './get-duplicate-pairs.ts';

/**
 * `POST /api/subscribers/merge` (Administrator): `mergeId` is merged into `keepId`, which takes the
 * fields marked `merge`. 400 naming `mergeId` for the same subscriber twice; 404 for an unknown or
 * already merged one; the problem's `detail` says which.
 */
function mergeSubscribers(body: MergeSubscribers): Promise<SubscriberMerge> {
  return apiRequest('/api/subscribers/merge', { method: 'POST', body, schema: subscriberMergeSchema });
}

/**
 * After a merge or its undo: the pairs and records of this feature, and every subscriber query (the
 * searches and histories of the subscribers screens live under `['subscribers']`), are out of date.
 */
export async function refreshAfterMerge(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: duplicatesQueryKey }),
    queryClient.invalidateQueries({ queryKey: ['subscribers'], refetchType: 'none' }),
  ]);
}

/** Merges two subscribers, then refreshes what showed them. */
export function useMergeSubscribers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: mergeSubscribers,
    onSuccess: () => refreshAfterMerge(queryClient),
  });
}
