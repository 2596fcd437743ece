import { subscriberExportQuerySchema } from '@back-office/contract/subscribers';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { type SubscriberFilters, subscriberSearchQuery } from '../subscriber-filters.ts';

/** §7: the export is saved as subscribers-export.xlsx. */
export const SUBSCRIBERS_EXPORT_FILENAME = 'subscribers-export.xlsx';

export type ExportSubscribersInput = { filters: SubscriberFilters; emailsOnly: boolean };

/**
 * `GET /api/subscribers/export?{filters}&emailsOnly=true|false` (part 2 §7): the XLSX of every match
 * (all details, or names and email addresses only), saved under the server's name. Returns that name.
 */
export async function exportSubscribers({ filters, emailsOnly }: ExportSubscribersInput): Promise<string> {
  const query = searchQueryString(subscriberExportQuerySchema, {
    ...subscriberSearchQuery(filters),
    emailsOnly,
  });
  const file = await apiDownload(`/api/subscribers/export?${query}`, {
    accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  const filename = file.filename ?? SUBSCRIBERS_EXPORT_FILENAME;
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link exportSubscribers} (§2.1 Export All Details / Export Email Addresses). */
export function useExportSubscribers() {
  return useMutation({ mutationFn: exportSubscribers });
}
