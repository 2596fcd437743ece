import {
  type StatementEntryList,
  type StatementEntryStatus,
  statementEntryListQuerySchema,
  statementEntryListSchema,
} from '@back-office/contract/bank-statements';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/** The page size of the review queue. */
export const ENTRIES_PAGE_SIZE = 50;

/** The root of every statement entries key. */
export const statementEntriesQueryRoot = ['bank-statements', 'entries'] as const;

/** Query key of one page of the entries of one status. */
export function statementEntriesQueryKey(status: StatementEntryStatus, page: number) {
  return [...statementEntriesQueryRoot, status, page] as const;
}

/**
 * `GET /api/bank-statements/entries?status&listfrom&listlength` (Administrator; docs/decisions/033) →
 * `{count, models}`: how many entries have the status, and the page `page` (from 1) of
 * {@link ENTRIES_PAGE_SIZE}, oldest first.
 */
export function getStatementEntries(
  status: StatementEntryStatus,
  page: number,
  signal?: AbortSignal,
): Promise<StatementEntryList> {
  const query = searchQueryString(statementEntryListQuerySchema, {
    status,
    listfrom: (page - 1) * ENTRIES_PAGE_SIZE + 1,
    listlength: ENTRIES_PAGE_SIZE,
  });
  return apiRequest(`/api/bank-statements/entries?${query}`, {
    schema: statementEntryListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** One page of the entries of one status; the last page stays on screen while the next one loads. */
export function useStatementEntries(status: StatementEntryStatus, page: number) {
  return useQuery(
    queryOptions({
      queryKey: statementEntriesQueryKey(status, page),
      queryFn: ({ signal }) => getStatementEntries(status, page, signal),
      placeholderData: keepPreviousData,
    }),
  );
}
