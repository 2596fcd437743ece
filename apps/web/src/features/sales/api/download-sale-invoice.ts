import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { salesQueryKeyRoot } from './search-sales.ts';

/** The invoice's name when the server gives none (part 2 §7: `sale-invoice-{ref}.pdf`). */
export function fallbackInvoiceFilename(ref: number): string {
  return `sale-invoice-${ref}.pdf`;
}

/**
 * `GET /api/sales/receipt/{saleId}`: the invoice PDF, saved under the name of the answer's
 * `Content-Disposition` (part 2 §7). Returns the name it was saved under.
 */
export async function downloadSaleInvoice(sale: { id: number; ref: number }): Promise<string> {
  const file = await apiDownload(`/api/sales/receipt/${sale.id}`, { accept: 'application/pdf' });
  const filename = file.filename ?? fallbackInvoiceFilename(sale.ref);
  saveFile(file.blob, filename);
  return filename;
}

/**
 * Mutation hook over {@link downloadSaleInvoice} (§2.5 Invoice button). The sales lists are refreshed:
 * once its invoice is issued, a sale is cancelled instead of removed.
 */
export function useDownloadSaleInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: downloadSaleInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: salesQueryKeyRoot }),
  });
}
