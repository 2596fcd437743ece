import { type StatementImport, statementImportSchema } from '@back-office/contract/bank-statements';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { statementEntriesQueryRoot } from './get-statement-entries.ts';

/**
 * `POST /api/bank-statements` (Administrator; multipart `file`: a camt.053 or camt.054 XML file, or a
 * ZIP of them, at most 50 MB; docs/decisions/033) → `{entries, matched, unmatched, duplicates,
 * listed}`; 400 `bank_statements.invalid_file` (or the reader's refusal) with a readable `detail`.
 */
function importBankStatement(file: File): Promise<StatementImport> {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest('/api/bank-statements', { method: 'POST', body: form, schema: statementImportSchema });
}

/** Imports a statement; the review queue and the other lists of entries are refreshed. */
export function useImportBankStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importBankStatement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statementEntriesQueryRoot }),
  });
}
