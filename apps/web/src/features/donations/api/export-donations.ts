import { donationExportQuerySchema } from '@back-office/contract/donations';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { type DonationSearchFilters, donationSearchQuery } from './search-donations.ts';

/** Part 2 §7: the two spreadsheets' names when the server gives none. */
export const DETAILS_EXPORT_FILENAME = 'donation-details-export.xlsx';
export const SUBSCRIBERS_EXPORT_FILENAME = 'donation-subscribers-export.xlsx';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What to export: the search's filters, the subscriber if one is selected, details or addresses. */
export type ExportDonationsInput = {
  filters: DonationSearchFilters;
  subscriberId: number | null;
  /** true: Export Donations (one row per donation); false: Export Addresses (one row per donor). */
  detailed: boolean;
};

/**
 * `GET /api/donations/export` with the search's filters plus `isdetailed` (part 2 §7 Donations): the
 * spreadsheet, saved under the name of the answer's `Content-Disposition`. Returns that name.
 */
export async function exportDonations({
  filters,
  subscriberId,
  detailed,
}: ExportDonationsInput): Promise<string> {
  const query = searchQueryString(donationExportQuerySchema, {
    ...donationSearchQuery(filters, subscriberId),
    isdetailed: detailed,
  });
  const file = await apiDownload(`/api/donations/export?${query}`, { accept: XLSX_TYPE });
  const filename = file.filename ?? (detailed ? DETAILS_EXPORT_FILENAME : SUBSCRIBERS_EXPORT_FILENAME);
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportDonations} (part 2 §2.4 Export dropdown). */
export function useExportDonations() {
  return useMutation({ mutationFn: exportDonations });
}
