import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { donationsQueryKey } from './search-donations.ts';

/** Part 2 §7: the single-donation receipt file is `donation-{id}-receipt.pdf`. */
export function receiptFilename(donationId: number): string {
  return `donation-${donationId}-receipt.pdf`;
}

/**
 * `GET /api/donations/receipt/{donationId}`: the tax receipt PDF of one donation (issued on first
 * download), saved under the name of the answer's `Content-Disposition` (part 2 §7 Donations).
 * Returns the name it was saved under.
 */
export async function downloadDonationReceipt(donationId: number): Promise<string> {
  const file = await apiDownload(`/api/donations/receipt/${donationId}`, { accept: 'application/pdf' });
  const filename = file.filename ?? receiptFilename(donationId);
  saveFile(file.blob, filename);
  return filename;
}

/** Downloads a receipt, then reloads the searches: the donation now shows its receipt number. */
export function useDownloadDonationReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: downloadDonationReceipt,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: donationsQueryKey }),
  });
}
