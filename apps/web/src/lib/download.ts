import { organisationToday } from './calendar.ts';
/**
 * Saving a downloaded file in the browser (part 1 §7 Products: the export "is saved as a file").
 */

/** Offers `blob` to the browser as a download named `filename`. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * `YYYY-MM-DD` of the day `date` falls on where the organisation is, e.g. 2025-03-07 (file names of
 * exports, "today" in forms; docs/decisions/012).
 */
export function localIsoDate(date: Date = new Date()): string {
  return organisationToday(date);
}
