import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';

/**
 * `GET /api/sales/{saleId}/credit-note`: the credit note PDF of a cancelled sale, saved under the
 * answer's name (`credit-note-{number}.pdf`). Returns the name it was saved under.
 */
export async function downloadCreditNote(sale: { id: number; creditNoteNumber: number }): Promise<string> {
  const file = await apiDownload(`/api/sales/${sale.id}/credit-note`, { accept: 'application/pdf' });
  const filename = file.filename ?? `credit-note-${sale.creditNoteNumber}.pdf`;
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link downloadCreditNote} (the Credit note button of a cancelled sale). */
export function useDownloadCreditNote() {
  return useMutation({ mutationFn: downloadCreditNote });
}
