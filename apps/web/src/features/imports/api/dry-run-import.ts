import { type ImportDryRun, type ImportDryRunQuery, importDryRunSchema } from '@back-office/contract/imports';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { importsQueryKey } from './get-imports.ts';

/** Rows of the dry run shown per page. */
export const DRY_RUN_PAGE_SIZE = 50;

export type DryRunPage = Pick<ImportDryRunQuery, 'status' | 'listfrom'>;

export function dryRunQueryKey(id: number, page?: DryRunPage) {
  return page
    ? ([...importsQueryKey, 'dry-run', id, page] as const)
    : ([...importsQueryKey, 'dry-run', id] as const);
}

/**
 * `POST /api/imports/{id}/dry-run?status=&listfrom=&listlength=` (no body): checks every row with the
 * saved mapping without writing anything, and answers the totals of the file and one page of rows. The
 * import becomes `checked`.
 */
export function dryRunImport(id: number, page: DryRunPage, signal?: AbortSignal): Promise<ImportDryRun> {
  const query = new URLSearchParams({
    status: page.status,
    listfrom: String(page.listfrom),
    listlength: String(DRY_RUN_PAGE_SIZE),
  });
  return apiRequest(`/api/imports/${id}/dry-run?${query.toString()}`, {
    method: 'POST',
    schema: importDryRunSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * One page of the dry run of a checked import. A dry run stays true until the mapping is saved again
 * (which drops these pages), so pages are not asked for twice; the previous page stays shown while
 * the next one loads.
 */
export function useImportDryRun(id: number, page: DryRunPage) {
  return useQuery({
    queryKey: dryRunQueryKey(id, page),
    queryFn: ({ signal }) => dryRunImport(id, page, signal),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
}
