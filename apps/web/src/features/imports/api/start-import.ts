import { type Import, type ImportKind, importSchema } from '@back-office/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { importQueryKey } from './get-import.ts';
import { importHistoryQueryKey } from './get-imports.ts';

export type StartImportInput = { kind: ImportKind; file: File };

/**
 * `POST /api/imports` (multipart: `kind` and `file`) → 201 the import, `uploaded`, with its columns and
 * the server's guess of the mapping. 400 with a readable `detail` for a file it cannot take.
 */
function startImport({ kind, file }: StartImportInput): Promise<Import> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', file, file.name);
  return apiRequest('/api/imports', { method: 'POST', body: form, schema: importSchema });
}

/** Uploads a file; the new import is cached at once and the history refreshed. */
export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startImport,
    onSuccess: async (started) => {
      queryClient.setQueryData(importQueryKey(started.id), started);
      await queryClient.invalidateQueries({ queryKey: importHistoryQueryKey });
    },
  });
}
