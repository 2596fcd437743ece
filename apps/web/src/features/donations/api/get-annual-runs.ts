import { type AnnualRunProgress, annualRunProgressSchema } from '@back-office/contract/annual-receipt-runs';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

export type { AnnualRunProgress } from '@back-office/contract/annual-receipt-runs';

/** The screen asks for a running run's progress every 2 seconds. */
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

/** One run's progress, asked again every 2 s while it is running (its progress is shown on screen). */
export function useAnnualRun(id: number | null) {
  return useQuery({
    queryKey: [...annualRunsQueryKey, id] as const,
    queryFn: ({ signal }) => getAnnualRun(id ?? 0, signal),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.status === 'running' || !query.state.data ? ANNUAL_RUN_POLL_MS : false,
  });
}
