import { type AnnualReceiptEmailed, annualReceiptEmailedSchema } from '@back-office/contract/donations';
import { emailQueuedResultSchema } from '@back-office/contract/subscribers';
import { apiDownload, apiRequest } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';

/**
 * The documents and emails of the subscriber screen's Actions menu (part 2 §2.2, §7): RUM letter,
 * annual donation receipts (download and email) and the returned-brochure email.
 */

/** A name safe in a file name: the last name without path separators, `subscriber` when empty. */
function fileStem(lastName: string): string {
  const safe = lastName.trim().replace(/[/\\?%*:|"<>]/g, '_');
  return safe || 'subscriber';
}

async function download(path: string, fallbackName: string): Promise<string> {
  const file = await apiDownload(path, { accept: 'application/pdf' });
  const filename = file.filename ?? fallbackName;
  saveFile(file.blob, filename);
  return filename;
}

/** `GET /api/subscribers/{id}/rum`: the mandate letter, saved as `{lastname}-rum-letter.pdf`. */
export function downloadRumLetter(id: number, lastName: string): Promise<string> {
  return download(`/api/subscribers/${id}/rum`, `${fileStem(lastName)}-rum-letter.pdf`);
}

/**
 * `GET /api/donations/receipt/{subscriberId}/{year}`: the annual receipt, saved as
 * `{lastname}-donations-receipt-{year}.pdf`.
 */
export function downloadAnnualReceipt(id: number, lastName: string, year: number): Promise<string> {
  return download(
    `/api/donations/receipt/${id}/${year}`,
    `${fileStem(lastName)}-donations-receipt-${year}.pdf`,
  );
}

/**
 * `GET /api/donations/annualemail/{subscriberId}/{year}`: emails the annual receipt; resolves with
 * how many receipts were issued now and before, and the address it went to.
 */
export function emailAnnualReceipt(id: number, year: number): Promise<AnnualReceiptEmailed> {
  return apiRequest(`/api/donations/annualemail/${id}/${year}`, { schema: annualReceiptEmailedSchema });
}

/** `GET /api/subscribers/{id}/brochure/email`: sends the returned-brochure email. */
export async function sendReturnedBrochureEmail(id: number): Promise<void> {
  await apiRequest(`/api/subscribers/${id}/brochure/email`, { schema: emailQueuedResultSchema });
}
