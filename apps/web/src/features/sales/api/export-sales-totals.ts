import type { CsvDialect } from '@back-office/contract/common';
import { saleCountQuerySchema } from '@back-office/contract/sales';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/** A period, both days `YYYY-MM-DD` and included. */
export type SalesTotalsPeriod = { from: string; to: string };

/** §7: `sales totals (from-to).csv` when the server gives no name. */
export function fallbackSalesTotalsFilename({ from, to }: SalesTotalsPeriod): string {
  return `sales totals (${from}-${to}).csv`;
}

/**
 * `GET /api/sales/salecount?from&to&dialect` (part 2 §7): per product, the quantity and amount per
 * currency over the period, as CSV in `dialect` (`rfc4180` when left out), saved under the name of
 * `Content-Disposition`. Returns the name it was saved under.
 */
export async function exportSalesTotals(
  period: SalesTotalsPeriod & { dialect?: CsvDialect },
): Promise<string> {
  const query = searchQueryString(saleCountQuerySchema, {
    from: period.from,
    to: period.to,
    dialect: period.dialect ?? 'rfc4180',
  });
  const file = await apiDownload(`/api/sales/salecount?${query}`, { accept: 'text/csv' });
  const filename = file.filename ?? fallbackSalesTotalsFilename(period);
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportSalesTotals} (§2.5 Export Sales Totals). */
export function useExportSalesTotals() {
  return useMutation({ mutationFn: exportSalesTotals });
}
