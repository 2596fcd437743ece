import { type DuplicatePairs, duplicatePairsSchema } from '@back-office/contract/duplicates';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Pairs per page of the Duplicates screen. */
export const DUPLICATE_PAGE_SIZE = 50;

/** While a scan runs, the pairs are asked for again every 2 seconds. */
export const DUPLICATES_POLL_MS = 2000;

/** Every query of this feature lives under this key (pages of pairs, the two records of a merge). */
export const duplicatesQueryKey = ['duplicates'] as const;

/** The pages of pairs, refreshed after a scan starts and after a merge or its undo. */
export const duplicatePairsQueryKey = [...duplicatesQueryKey, 'pairs'] as const;

/** `GET /api/subscribers/duplicates` (Administrator): one page of the last scan's pairs, best first. */
function getDuplicatePairs(listfrom: number, signal?: AbortSignal): Promise<DuplicatePairs> {
  const query = new URLSearchParams({ listfrom: String(listfrom), listlength: String(DUPLICATE_PAGE_SIZE) });
  return apiRequest(`/api/subscribers/duplicates?${query.toString()}`, {
    schema: duplicatePairsSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * Page `page` (from 1) of the pairs, with when the last scan ended and whether one is running; polled
 * every {@link DUPLICATES_POLL_MS} ms while it is. The previous page stays shown while the next loads.
 */
export function useDuplicatePairs(page: number) {
  return useQuery({
    queryKey: [...duplicatePairsQueryKey, page] as const,
    queryFn: ({ signal }) => getDuplicatePairs((page - 1) * DUPLICATE_PAGE_SIZE + 1, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.scanning ? DUPLICATES_POLL_MS : false),
  });
}
