import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';

/** The name of the print file when the server gives none. */
export function printFilename(year: number): string {
  return `annual-receipts-${year}-to-print.pdf`;
}

/**
 * `GET /api/donations/annual-runs/{id}/print`: one PDF of the annual receipts of the run's donors
 * without an email address, for printing; 404 `annual_runs.nothing_to_print` when there
 * are none. Saved under the name of the answer's `Content-Disposition`; returns that name.
 */
export async function downloadAnnualRunPrint({ id, year }: { id: number; year: number }): Promise<string> {
  const file = await apiDownload(`/api/donations/annual-runs/${id}/print`, { accept: 'application/pdf' });
  const filename = file.filename ?? printFilename(year);
  saveFile(file.blob, filename);
  return filename;
}

/** Mutation hook over {@link downloadAnnualRunPrint}. */
export function useDownloadAnnualRunPrint() {
  return useMutation({ mutationFn: downloadAnnualRunPrint });
}
