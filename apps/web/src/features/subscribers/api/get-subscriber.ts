import { type Subscriber, subscriberSchema } from '@back-office/contract/subscribers';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of one subscriber (`'new'` for the blank record). */
export function subscriberQueryKey(id: number | 'new') {
  return ['subscribers', 'record', id] as const;
}

/** `GET /api/subscribers/{id}`: the full record (404 when unknown or deleted; part 2 §7). */
export function getSubscriber(id: number, signal?: AbortSignal): Promise<Subscriber> {
  return apiRequest(`/api/subscribers/${id}`, { schema: subscriberSchema, ...(signal ? { signal } : {}) });
}

/** `GET /api/subscribers/new`: a blank record added by the signed-in user (part 2 §2, §3). */
export function getNewSubscriber(signal?: AbortSignal): Promise<Subscriber> {
  return apiRequest('/api/subscribers/new', { schema: subscriberSchema, ...(signal ? { signal } : {}) });
}

/**
 * Query options of the subscriber screen's record: always fetched afresh on entry (the screen edits
 * it; a cached copy could carry an old `version`).
 */
export function subscriberQueryOptions(id: number | 'new') {
  return queryOptions({
    queryKey: subscriberQueryKey(id),
    queryFn: ({ signal }) => (id === 'new' ? getNewSubscriber(signal) : getSubscriber(id, signal)),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
