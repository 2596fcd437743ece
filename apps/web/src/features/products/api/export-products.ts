import type { CsvDialect } from '@back-office/contract/common';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { localIsoDate, saveFile } from '../../../lib/download.ts';

/** The export's name when the server gives none: `products-export-{year}-{month}-{day}.csv` (part 1 §7). */
export function fallbackExportFilename(date: Date = new Date()): string {
  return `products-export-${localIsoDate(date)}.csv`;
}

/**
 * `GET /api/products/export?dialect=`: the CSV of every product in `dialect` (`rfc4180` or `excel-fr`),
 * saved under the name of the answer's `Content-Disposition` (part 1 §7 Products). Returns the name it
 * was saved under.
 */
export async function exportProducts(dialect: CsvDialect = 'rfc4180'): Promise<string> {
  const file = await apiDownload(`/api/products/export?dialect=${dialect}`, { accept: 'text/csv' });
  const filename = file.filename ?? fallbackExportFilename();
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportProducts} (part 1 §2 Products: Export Products). */
export function useExportProducts() {
  return useMutation({ mutationFn: exportProducts });
}
