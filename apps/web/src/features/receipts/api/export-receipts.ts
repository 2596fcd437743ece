import type { CsvDialect } from '@back-office/contract/common';
import { receiptRegisterExportQuerySchema } from '@back-office/contract/receipts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { type ReceiptFilters, receiptFilterQuery } from './search-receipts.ts';

/** The export's name when the server gives none. */
const FALLBACK_FILENAME = 'receipts-register.csv';

/** What an export needs: the filters of the search shown and the CSV dialect. */
type ExportReceiptsVariables = { filters: ReceiptFilters; dialect: CsvDialect };

/**
 * `GET /api/receipts/export?year&status&dialect=rfc4180|excel-fr`: the register (with the filters of the
 * search shown) as CSV, saved under the answer's name, `receipts-register.csv`. Returns that name.
 */
async function exportReceipts({ filters, dialect }: ExportReceiptsVariables): Promise<string> {
  const query = searchQueryString(receiptRegisterExportQuerySchema, {
    ...receiptFilterQuery(filters),
    dialect,
  });
  const file = await apiDownload(`/api/receipts/export?${query}`, { accept: 'text/csv' });
  const filename = file.filename ?? FALLBACK_FILENAME;
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportReceipts} (the Export menu). */
export function useExportReceipts() {
  return useMutation({ mutationFn: exportReceipts });
}
