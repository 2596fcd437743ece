import { type CommitImport, type Import, importSchema } from '@back-office/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { importQueryKey } from './get-import.ts';
import { importHistoryQueryKey } from './get-imports.ts';

/**
 * `POST /api/imports/{id}/commit` body `{decisions}` → 202 the import, `queued` for its job. Duplicates
 * are skipped unless a decision says create or merge; valid rows are created unless told skip. 409 when
 * the import is not `checked`.
 */
function commitImport(id: number, body: CommitImport): Promise<Import> {
  return apiRequest(`/api/imports/${id}/commit`, { method: 'POST', body, schema: importSchema });
}

/** Commits a checked import; the queued import is cached (which starts its polling) and the history refreshed. */
export function useCommitImport(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommitImport) => commitImport(id, body),
    onSuccess: async (queued) => {
      queryClient.setQueryData(importQueryKey(id), queued);
      await queryClient.invalidateQueries({ queryKey: importHistoryQueryKey });
    },
  });
}
