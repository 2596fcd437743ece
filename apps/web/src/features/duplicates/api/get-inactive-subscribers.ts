import {
  type InactiveSubscribersResult,
  inactiveSubscribersResultSchema,
} from '@back-office/contract/subscribers';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { duplicatesQueryKey } from './get-duplicate-pairs.ts';

/** Subscribers per page of the inactive subscribers' list. */
export const INACTIVE_PAGE_SIZE = 50;

/**
 * `GET /api/subscribers/inactive` (Administrator): one page of the subscribers without activity for the
 * settings' period, oldest activity first (GDPR art. 5(1)(e)).
 */
function getInactiveSubscribers(listfrom: number, signal?: AbortSignal): Promise<InactiveSubscribersResult> {
  const query = new URLSearchParams({ listfrom: String(listfrom), listlength: String(INACTIVE_PAGE_SIZE) });
  return apiRequest(`/api/subscribers/inactive?${query.toString()}`, {
    schema: inactiveSubscribersResultSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Page `page` (from 1) of the inactive subscribers; the previous page stays shown while the next loads. */
export function useInactiveSubscribers(page: number) {
  return useQuery({
    queryKey: [...duplicatesQueryKey, 'inactive', page] as const,
    queryFn: ({ signal }) => getInactiveSubscribers((page - 1) * INACTIVE_PAGE_SIZE + 1, signal),
    placeholderData: keepPreviousData,
  });
}
