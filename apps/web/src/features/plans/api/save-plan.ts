import { type Plan, type PlanChanges, type PlanValues, planReadSchema } from '@back-office/contract/plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { plansQueryKey } from './get-plans.ts';

/** What a save sends: a new plan of `subscriberId`, or the changes (or new status) of plan `id`. */
export type SavePlanRequest =
  | { subscriberId: number; id?: undefined; values: PlanValues }
  | { subscriberId: number; id: number; values: PlanChanges };

/**
 * `POST /api/subscribers/{id}/plans` (201) or `PATCH /api/plans/{id}` → the plan (amount in euros,
 * dates `YYYY-MM-DD`); 400 naming the field, 409 `plans.mandate_unusable` naming `mandateId`, 409
 * `plans.ended`.
 */
function savePlan(request: SavePlanRequest): Promise<Plan> {
  return request.id === undefined
    ? apiRequest(`/api/subscribers/${request.subscriberId}/plans`, {
        method: 'POST',
        body: request.values,
        schema: planReadSchema,
      })
    : apiRequest(`/api/plans/${request.id}`, {
        method: 'PATCH',
        body: request.values,
        schema: planReadSchema,
      });
}

/** Adds, changes, pauses, resumes or ends a recurring gift; the subscriber's list is refreshed. */
export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePlan,
    onSuccess: (_saved, request) =>
      queryClient.invalidateQueries({ queryKey: plansQueryKey(request.subscriberId) }),
  });
}
