import type { CsvDialect } from '@back-office/contract/common';
import { saleExportQuerySchema } from '@back-office/contract/sales';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { type SalesFilters, salesExportQuery } from '../sales-filters.ts';

/** §7: the export's names when the server gives none. */
export function fallbackSalesExportFilename(detailed: boolean): string {
  return detailed ? 'detailed-sales-export.csv' : 'sales-export.csv';
}

/** What an export needs: the search form, the subscriber of the list (or null), one row per line or not. */
export type ExportSalesVariables = {
  filters: SalesFilters;
  subscriberId: number | null;
  detailed: boolean;
  /** The CSV dialect (`?dialect=`); `rfc4180` when left out. */
  dialect?: CsvDialect;
};

/**
 * `GET /api/sales/export?id,name,zip,addedafter,addedbefore,amountMin,amountMax,isdetailed,product,dialect`
 * (part 2 §7; `paymentStatus` too when one is chosen, as in the search): the CSV of the matching sales (Export Sales) or of their lines (Export Itemised Sales),
 * saved under the name of `Content-Disposition`. Returns the name it was saved under.
 */
export async function exportSales({
  filters,
  subscriberId,
  detailed,
  dialect = 'rfc4180',
}: ExportSalesVariables): Promise<string> {
  const query = searchQueryString(saleExportQuerySchema, {
    ...salesExportQuery(filters, subscriberId, detailed),
    dialect,
  });
  const file = await apiDownload(`/api/sales/export?${query}`, { accept: 'text/csv' });
  const filename = file.filename ?? fallbackSalesExportFilename(detailed);
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportSales}. */
export function useExportSales() {
  return useMutation({ mutationFn: exportSales });
}
