import { receiptStatementQuerySchema } from '@back-office/contract/receipts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/**
 * `GET /api/receipts/annual-statement/pdf?year=` (Administrators): the annual statement of
 * CGI art. 222 bis as a one-page PDF, amounts in euros, saved under the answer's name,
 * `receipts-annual-statement-{year}.pdf`. Returns the name it was saved under.
 */
async function downloadReceiptStatementPdf(year: number): Promise<string> {
  const query = searchQueryString(receiptStatementQuerySchema, { year });
  const file = await apiDownload(`/api/receipts/annual-statement/pdf?${query}`, {
    accept: 'application/pdf',
  });
  const filename = file.filename ?? `receipts-annual-statement-${year}.pdf`;
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link downloadReceiptStatementPdf} (the statement's PDF button); `variables` is the year. */
export function useDownloadReceiptStatementPdf() {
  return useMutation({ mutationFn: downloadReceiptStatementPdf });
}
