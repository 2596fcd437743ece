import { donationExportQuerySchema } from '@back-office/contract/donations';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { exportInlineOrInBackground, type SearchMatches } from '../../../entities/exports/index.ts';
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
  /** What the search of these filters matched: many matches go to a background export. */
  matches: SearchMatches;
};

/**
 * `GET /api/donations/export` with the search's filters plus `isdetailed` (part 2 §7 Donations): the
 * spreadsheet, saved under the name of the answer's `Content-Disposition`. Above the inline limit (or
 * with an estimated count, or on 409 `exports.too_large`) the same query goes to `POST /api/exports`
 * instead (contract `exports`). Returns the saved name, null when cancelled.
 */
export async function exportDonations({
  filters,
  subscriberId,
  detailed,
  matches,
}: ExportDonationsInput): Promise<string | null> {
  const query: z.input<typeof donationExportQuerySchema> = {
    ...donationSearchQuery(filters, subscriberId),
    isdetailed: detailed,
  };
  return exportInlineOrInBackground({
    matches,
    request: { source: 'donations', query },
    download: async () => {
      const file = await apiDownload(
        `/api/donations/export?${searchQueryString(donationExportQuerySchema, query)}`,
        { accept: XLSX_TYPE },
      );
      const filename = file.filename ?? (detailed ? DETAILS_EXPORT_FILENAME : SUBSCRIBERS_EXPORT_FILENAME);
      saveFile(file.blob, filename);
      return filename;
    },
  });
}

/**
 * Mutation hook over {@link exportDonations} (part 2 §2.4 Export dropdown). `onError` is the mutation's
 * own, not `mutate`'s: it still runs when a background export fails after the screen was left.
 */
export function useExportDonations({ onError }: { onError: (error: Error) => void }) {
  return useMutation({ mutationFn: exportDonations, onError });
}
