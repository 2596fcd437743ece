import type { DuplicatePairs } from '@back-office/contract/duplicates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { duplicatePairsQueryKey } from './get-duplicate-pairs.ts';

/** `POST /api/subscribers/duplicates/scan` (Administrator) → 202: a scan of the register starts in the background. */
function scanDuplicates(): Promise<void> {
  return apiRequest('/api/subscribers/duplicates/scan', { method: 'POST' });
}

/**
 * Starts a scan; the pages shown say "scanning" at once (so that they are polled until it ends), then
 * are asked for again.
 */
export function useScanDuplicates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scanDuplicates,
    onSuccess: async () => {
      queryClient.setQueriesData<DuplicatePairs>({ queryKey: duplicatePairsQueryKey }, (pairs) =>
        pairs ? { ...pairs, scanning: true } : pairs,
      );
      await queryClient.invalidateQueries({ queryKey: duplicatePairsQueryKey });
    },
  });
}
