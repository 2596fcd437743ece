import { type Mandate, mandateListSchema } from '@back-office/contract/mandates';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of a subscriber's mandates; the writes invalidate it. */
export function mandatesQueryKey(subscriberId: number) {
  return ['mandates', 'subscriber', subscriberId] as const;
}

/** `GET /api/subscribers/{id}/mandates`: the subscriber's mandates, most recently signed first. */
function getMandates(subscriberId: number, signal?: AbortSignal): Promise<Mandate[]> {
  return apiRequest(`/api/subscribers/${subscriberId}/mandates`, {
    schema: mandateListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** A subscriber's SEPA mandates (docs/decisions/027). */
export function useMandates(subscriberId: number) {
  return useQuery(
    queryOptions({
      queryKey: mandatesQueryKey(subscriberId),
      queryFn: ({ signal }) => getMandates(subscriberId, signal),
    }),
  );
}
