import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { localIsoDate, saveFile } from '../../../lib/download.ts';

/** The export's name when the server gives none: `products-export-{year}-{month}-{day}.csv` (part 1 §7). */
export function fallbackExportFilename(date: Date = new Date()): string {
  return `products-export-${localIsoDate(date)}.csv`;
}

/**
 * `GET /api/products/export`: the CSV of every product, saved under the name of the answer's
 * `Content-Disposition` (part 1 §7 Products). Returns the name it was saved under.
 */
export async function exportProducts(): Promise<string> {
  const file = await apiDownload('/api/products/export', { accept: 'text/csv' });
  const filename = file.filename ?? fallbackExportFilename();
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportProducts} (part 1 §2 Products: Export Products). */
export function useExportProducts() {
  return useMutation({ mutationFn: exportProducts });
}
