import { subscriberExportQuerySchema } from '@back-office/contract/subscribers';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { exportInlineOrInBackground, type SearchMatches } from '../../../entities/exports/index.ts';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { type SubscriberFilters, subscriberSearchQuery } from '../subscriber-filters.ts';

/** §7: the export is saved as subscribers-export.xlsx. */
export const SUBSCRIBERS_EXPORT_FILENAME = 'subscribers-export.xlsx';

export type ExportSubscribersInput = {
  filters: SubscriberFilters;
  emailsOnly: boolean;
  /** What the search of these filters matched: many matches go to a background export. */
  matches: SearchMatches;
};

/**
 * `GET /api/subscribers/export?{filters}&emailsOnly=true|false` (part 2 §7): the XLSX of every match
 * (all details, or names and email addresses only), saved under the server's name. Above the inline
 * limit (or with an estimated count, or on 409 `exports.too_large`) the same query goes to
 * `POST /api/exports` instead (contract `exports`). Returns the saved name, null when cancelled.
 */
export async function exportSubscribers({
  filters,
  emailsOnly,
  matches,
}: ExportSubscribersInput): Promise<string | null> {
  const query: z.input<typeof subscriberExportQuerySchema> = {
    ...subscriberSearchQuery(filters),
    emailsOnly,
  };
  return exportInlineOrInBackground({
    matches,
    request: { source: 'subscribers', query },
    download: async () => {
      const file = await apiDownload(
        `/api/subscribers/export?${searchQueryString(subscriberExportQuerySchema, query)}`,
        { accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      );
      const filename = file.filename ?? SUBSCRIBERS_EXPORT_FILENAME;
      saveFile(file.blob, filename);
      return filename;
    },
  });
}

/**
 * Mutation hook over {@link exportSubscribers} (§2.1 Export All Details / Export Email Addresses).
 * `onError` is the mutation's own, not `mutate`'s: it still runs when a background export fails after
 * the screen was left.
 */
export function useExportSubscribers({ onError }: { onError: (error: Error) => void }) {
  return useMutation({ mutationFn: exportSubscribers, onError });
}
