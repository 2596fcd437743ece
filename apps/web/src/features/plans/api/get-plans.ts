import { type Plan, planListSchema } from '@back-office/contract/plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of a subscriber's recurring gifts; the writes invalidate it. */
export function plansQueryKey(subscriberId: number) {
  return ['plans', 'subscriber', subscriberId] as const;
}

/** `GET /api/subscribers/{id}/plans`: the subscriber's recurring gifts, most recently started first. */
function getPlans(subscriberId: number, signal?: AbortSignal): Promise<Plan[]> {
  return apiRequest(`/api/subscribers/${subscriberId}/plans`, {
    schema: planListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** A subscriber's recurring gifts by SEPA direct debit (docs/decisions/028). */
export function usePlans(subscriberId: number) {
  return useQuery(
    queryOptions({
      queryKey: plansQueryKey(subscriberId),
      queryFn: ({ signal }) => getPlans(subscriberId, signal),
    }),
  );
}
