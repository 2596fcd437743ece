import { type ImportSummary, importListSchema } from '@back-office/contract/imports';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Every query of the imports lives under this key: the history, each import and its dry runs. */
export const importsQueryKey = ['imports'] as const;

/** The history's key, refreshed whenever an import is started, checked, committed or undone. */
export const importHistoryQueryKey = [...importsQueryKey, 'history'] as const;

/** `GET /api/imports` (Administrator): the 50 newest imports, newest first, without their columns. */
function getImports(signal?: AbortSignal): Promise<ImportSummary[]> {
  return apiRequest('/api/imports', { schema: importListSchema, ...(signal ? { signal } : {}) });
}

/** The history of imports. */
export function useImports() {
  return useQuery({ queryKey: importHistoryQueryKey, queryFn: ({ signal }) => getImports(signal) });
}
