import { type AnnualRunProgress, annualRunProgressSchema } from '@back-office/contract/annual-receipt-runs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { annualRunsQueryKey } from './get-annual-runs.ts';

/**
 * `POST /api/donations/annual-runs {year}` starts issuing and emailing the annual receipts of a
 * year: 202 with the run's progress; 409 `annual_runs.running` while another run is going.
 */
export function startAnnualRun(year: number): Promise<AnnualRunProgress> {
  return apiRequest('/api/donations/annual-runs', {
    method: 'POST',
    body: { year },
    schema: annualRunProgressSchema,
  });
}

/** Starts a run, then reloads the list of recent runs. */
export function useStartAnnualRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startAnnualRun,
    onSuccess: (run) => {
      queryClient.setQueryData([...annualRunsQueryKey, run.id], run);
      return queryClient.invalidateQueries({ queryKey: annualRunsQueryKey, exact: true });
    },
  });
}
