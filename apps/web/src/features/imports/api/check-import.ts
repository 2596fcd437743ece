import { type Import, importSchema, type SaveImportMapping } from '@back-office/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { DRY_RUN_PAGE_SIZE, type DryRunPage, dryRunImport, dryRunQueryKey } from './dry-run-import.ts';
import { importQueryKey } from './get-import.ts';
import { importHistoryQueryKey } from './get-imports.ts';

/**
 * `PUT /api/imports/{id}/mapping` body `{mapping, options}` → 200 the import, back to `uploaded` with
 * no dry run. 400 naming unknown fields or bad options.
 */
function saveImportMapping(id: number, body: SaveImportMapping): Promise<Import> {
  return apiRequest(`/api/imports/${id}/mapping`, { method: 'PUT', body, schema: importSchema });
}

const FIRST_PAGE: DryRunPage = { status: '', listfrom: 1 };

/**
 * The Check button: saves the mapping and options, then runs the dry run (its first page of all rows,
 * {@link DRY_RUN_PAGE_SIZE} rows). The pages of an earlier dry run are dropped, the first page is
 * cached, and the import shows as `checked` with the new totals.
 */
export function useCheckImport(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveImportMapping) => {
      const saved = await saveImportMapping(id, body);
      queryClient.removeQueries({ queryKey: dryRunQueryKey(id) });
      const dryRun = await dryRunImport(id, FIRST_PAGE);
      return { saved, dryRun };
    },
    onSuccess: async ({ saved, dryRun }) => {
      queryClient.setQueryData(dryRunQueryKey(id, FIRST_PAGE), dryRun);
      queryClient.setQueryData<Import>(importQueryKey(id), {
        ...saved,
        status: 'checked',
        dryRun: { valid: dryRun.valid, invalid: dryRun.invalid, duplicates: dryRun.duplicates },
      });
      await queryClient.invalidateQueries({ queryKey: importHistoryQueryKey });
    },
  });
}
