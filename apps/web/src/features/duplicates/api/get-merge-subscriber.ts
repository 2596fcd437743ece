import { type Subscriber, subscriberSchema } from '@back-office/contract/subscribers';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { duplicatesQueryKey } from './get-duplicate-pairs.ts';

/**
 * `GET /api/subscribers/{id}`: the full record. A subscriber already merged answers 308 to the one it
 * was merged into, which `fetch` follows: the record's `id` then differs from the one asked for.
 */
function getMergeSubscriber(id: number, signal?: AbortSignal): Promise<Subscriber> {
  return apiRequest(`/api/subscribers/${id}`, { schema: subscriberSchema, ...(signal ? { signal } : {}) });
}

/** One of the two records of the Merge screen, always read afresh (its version matters to the merge). */
export function useMergeSubscriber(id: number) {
  return useQuery({
    queryKey: [...duplicatesQueryKey, 'subscriber', id] as const,
    queryFn: ({ signal }) => getMergeSubscriber(id, signal),
    staleTime: 0,
    gcTime: 0,
  });
}
