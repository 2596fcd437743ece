import { type Job, jobListSchema } from '@back-office/contract/jobs';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** The Jobs screen asks again every 2 seconds, so progress moves while staff watch. */
export const JOBS_POLL_MS = 2000;

export const jobsQueryKey = ['jobs'] as const;

/** `GET /api/jobs` (Administrator): the repeating jobs, then the 50 newest others. */
export function getJobs(signal?: AbortSignal): Promise<Job[]> {
  return apiRequest('/api/jobs', { schema: jobListSchema, ...(signal ? { signal } : {}) });
}

/** The jobs with their state and progress, refreshed every {@link JOBS_POLL_MS} ms. */
export function useJobs() {
  return useQuery({
    queryKey: jobsQueryKey,
    queryFn: ({ signal }) => getJobs(signal),
    refetchInterval: JOBS_POLL_MS,
  });
}
