import { type Import, type ImportStatus, importSchema } from '@back-office/contract/imports';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { importsQueryKey } from './get-imports.ts';

/** While an import is being committed, it is asked for again every second so that its progress moves. */
export const IMPORT_POLL_MS = 1000;

const BUSY: readonly ImportStatus[] = ['queued', 'running'];

/** Whether the import's job is still writing it (queued or running). */
export function isCommitting(status: ImportStatus): boolean {
  return BUSY.includes(status);
}

export function importQueryKey(id: number) {
  return [...importsQueryKey, 'detail', id] as const;
}

/** `GET /api/imports/{id}` (Administrator): one import with its columns, mapping, totals and progress. */
function getImport(id: number, signal?: AbortSignal): Promise<Import> {
  return apiRequest(`/api/imports/${id}`, { schema: importSchema, ...(signal ? { signal } : {}) });
}

/** One import (none while `id` is null), polled every {@link IMPORT_POLL_MS} ms while it is queued or running. */
export function useImport(id: number | null) {
  return useQuery({
    queryKey: importQueryKey(id ?? 0),
    queryFn: ({ signal }) => getImport(id ?? 0, signal),
    enabled: id !== null,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status && isCommitting(status) ? IMPORT_POLL_MS : false;
    },
  });
}
