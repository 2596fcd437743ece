import { personalDataFileName } from '@back-office/contract/personal-data';
import { apiDownload } from '../../../lib/api-client.ts';
import { localIsoDate, saveFile } from '../../../lib/download.ts';

/**
 * `GET /api/subscribers/{id}/personal-data` (Administrator; GDPR art. 15 and 20): everything held
 * about the subscriber as a ZIP (JSON files and the PDFs of their receipts and invoices), saved as
 * the server names it, `personal-data-{id}-{YYYY-MM-DD}.zip`. Resolves with the file name.
 */
export async function downloadPersonalData(id: number): Promise<string> {
  const file = await apiDownload(`/api/subscribers/${id}/personal-data`, { accept: 'application/zip' });
  const filename = file.filename ?? personalDataFileName(id, localIsoDate());
  saveFile(file.blob, filename);
  return filename;
}
