import type { CsvDialect } from '@back-office/contract/common';
import { receiptStatementExportQuerySchema } from '@back-office/contract/receipts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/** What the statement's export needs: the year and the CSV dialect. */
type ExportReceiptStatementVariables = { year: number; dialect: CsvDialect };

/**
 * `GET /api/receipts/annual-statement/export?year=&dialect=` (Administrators): the annual statement of
 * CGI art. 222 bis as CSV, one row per article of the tax code and the total, amounts in euros, saved
 * under the answer's name, `receipts-annual-statement-{year}.csv`. Returns that name.
 */
async function exportReceiptStatement({ year, dialect }: ExportReceiptStatementVariables): Promise<string> {
  const query = searchQueryString(receiptStatementExportQuerySchema, { year, dialect });
  const file = await apiDownload(`/api/receipts/annual-statement/export?${query}`, { accept: 'text/csv' });
  const filename = file.filename ?? `receipts-annual-statement-${year}.csv`;
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportReceiptStatement} (the statement's Export menu). */
export function useExportReceiptStatement() {
  return useMutation({ mutationFn: exportReceiptStatement });
}
