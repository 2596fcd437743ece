import { type Subscriber, subscriberSchema } from '@back-office/contract/subscribers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of the buyer of a new sale. */
export function saleSubscriberQueryKey(id: number) {
  return ['sales', 'subscriber', id] as const;
}

/** `GET /api/subscribers/{id}`: the buyer of a new sale (part 2 §2.6 "subscriber loaded first"). */
export function getSaleSubscriber(id: number, signal?: AbortSignal): Promise<Subscriber> {
  return apiRequest(`/api/subscribers/${id}`, { schema: subscriberSchema, ...(signal ? { signal } : {}) });
}

/** The buyer, always read fresh from the server when the New Sale screen opens (§2.6). */
export function useSaleSubscriber(id: number) {
  return useQuery(
    queryOptions({
      queryKey: saleSubscriberQueryKey(id),
      queryFn: ({ signal }) => getSaleSubscriber(id, signal),
      enabled: Number.isInteger(id) && id > 0,
      staleTime: 0,
      gcTime: 0,
    }),
  );
}
