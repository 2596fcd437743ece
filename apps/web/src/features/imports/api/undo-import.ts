import { type Import, importSchema } from '@back-office/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { importQueryKey } from './get-import.ts';
import { importHistoryQueryKey } from './get-imports.ts';

/**
 * `POST /api/imports/{id}/undo` → 200 the import, `undone`: what it created is removed and what it
 * merged is put back. 409 whose `detail` names the subscribers changed since, when it cannot be undone.
 */
function undoImport(id: number): Promise<Import> {
  return apiRequest(`/api/imports/${id}/undo`, { method: 'POST', schema: importSchema });
}

/** Undoes a committed import, then refreshes the history and the import itself. */
export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoImport,
    onSuccess: async (undone) => {
      queryClient.setQueryData(importQueryKey(undone.id), undone);
      await queryClient.invalidateQueries({ queryKey: importHistoryQueryKey });
    },
  });
}
