import { type Job, jobSchema } from '@back-office/contract/jobs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { jobsQueryKey } from './get-jobs.ts';

/**
 * `POST /api/jobs/{id}/cancel` → 202 the job: a queued job is cancelled at once, a running one stops
 * within a second. 409 `jobs.not_cancellable` for a repeating job or one that is over.
 */
export function cancelJob(id: number): Promise<Job> {
  return apiRequest(`/api/jobs/${id}/cancel`, { method: 'POST', schema: jobSchema });
}

/** Cancels a job, then refreshes the list (and the annual runs, whose run a cancel ends). */
export function useCancelJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelJob,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: jobsQueryKey });
      await queryClient.invalidateQueries({ queryKey: ['annual-runs'] });
    },
  });
}
