import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';

/**
 * `GET /api/receipts/{number}/pdf`: the receipt as issued (printed ANNULÉ once cancelled), saved under
 * the answer's name, `receipt-{number}.pdf`. Returns the name it was saved under.
 */
async function downloadReceiptPdf(number: number): Promise<string> {
  const file = await apiDownload(`/api/receipts/${number}/pdf`, { accept: 'application/pdf' });
  const filename = file.filename ?? `receipt-${number}.pdf`;
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link downloadReceiptPdf} (the PDF button of a row); `variables` is the number. */
export function useDownloadReceiptPdf() {
  return useMutation({ mutationFn: downloadReceiptPdf });
}
