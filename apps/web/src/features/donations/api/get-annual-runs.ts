import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The annual receipt run (issue 5 §5, not in the spec; Administrator only): the progress the server
 * reports for a run. The contract package has no schema for it yet, so it is declared here, as the
 * server's routes describe it.
 */
export const annualRunProgressSchema = z.object({
  id: z.number().int(),
  year: z.number().int(),
  status: z.enum(['running', 'done']),
  startedBy: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  total: z.number().int(),
  pending: z.number().int(),
  emailed: z.number().int(),
  toPrint: z.number().int(),
  failed: z.number().int(),
});
export type AnnualRunProgress = z.infer<typeof annualRunProgressSchema>;

/** Issue 5 §5: the screen asks for a running run's progress every 2 seconds. */
export const ANNUAL_RUN_POLL_MS = 2000;

export const annualRunsQueryKey = ['annual-runs'] as const;

/** `GET /api/donations/annual-runs`: the recent runs, newest first. */
export function getAnnualRuns(signal?: AbortSignal): Promise<AnnualRunProgress[]> {
  return apiRequest('/api/donations/annual-runs', {
    schema: z.array(annualRunProgressSchema),
    ...(signal ? { signal } : {}),
  });
}

/** `GET /api/donations/annual-runs/{id}`: one run's progress. */
export function getAnnualRun(id: number, signal?: AbortSignal): Promise<AnnualRunProgress> {
  return apiRequest(`/api/donations/annual-runs/${id}`, {
    schema: annualRunProgressSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The recent runs (the annual receipts screen's list). */
export function useAnnualRuns() {
  return useQuery(
    queryOptions({ queryKey: annualRunsQueryKey, queryFn: ({ signal }) => getAnnualRuns(signal) }),
  );
}

/** One run's progress, asked again every 2 s while it is running (issue 5 §5: progress shown on screen). */
export function useAnnualRun(id: number | null) {
  return useQuery({
    queryKey: [...annualRunsQueryKey, id] as const,
    queryFn: ({ signal }) => getAnnualRun(id ?? 0, signal),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'done' ? false : ANNUAL_RUN_POLL_MS),
  });
}
