import { type SubscriberMerge, subscriberMergeSchema } from '@back-office/contract/duplicates';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/subscribers/merge/{mergeId}/undo` (Administrator): both records back as they were, and what
 * moved moved back. 409 with a readable `detail` after 30 days, or when the kept record changed since.
 * A plain function: it is called from the merge's notification, which lives outside the screens.
 */
export function undoMerge(mergeId: number): Promise<SubscriberMerge> {
  return apiRequest(`/api/subscribers/merge/${mergeId}/undo`, {
    method: 'POST',
    schema: subscriberMergeSchema,
  });
}
