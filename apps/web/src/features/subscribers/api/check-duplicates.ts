import {
  type DuplicateCheck,
  type DuplicateMatch,
  duplicateMatchListSchema,
} from '@back-office/contract/duplicates';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** The check's body with every field written out. */
export type DuplicateCheckBody = Required<DuplicateCheck>;

/**
 * `POST /api/subscribers/duplicates/check` (any signed-in user): the existing subscribers (at most 10,
 * best first) who look like the one being written, other than `excludeId`.
 */
function checkDuplicates(body: DuplicateCheckBody, signal?: AbortSignal): Promise<DuplicateMatch[]> {
  return apiRequest('/api/subscribers/duplicates/check', {
    method: 'POST',
    body,
    schema: duplicateMatchListSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The likely duplicates of `body` (nothing is asked while it is null). A failed check stays quiet: the
 * warning is a help, never a reason not to save.
 */
export function useDuplicateCheck(body: DuplicateCheckBody | null) {
  return useQuery({
    queryKey: ['subscribers', 'duplicate-check', body] as const,
    queryFn: ({ signal }) => checkDuplicates(body as DuplicateCheckBody, signal),
    enabled: body !== null,
    retry: false,
  });
}
