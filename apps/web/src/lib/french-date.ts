/**
 * Dates as French-speaking staff type them (`dd/mm/yyyy`), read into the wire's `YYYY-MM-DD`
 * (docs/spec/design.md §Contract decisions the spec leaves open: dates are `YYYY-MM-DD`).
 */

const FRENCH_DATE = /^(\d{1,2})[/.\-\s](\d{1,2})[/.\-\s](\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isoIfReal(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A typed day as `YYYY-MM-DD`, or null when it is not a real day: `25/12/2025`, `5/1/2026`,
 * `05.01.2026` and `05-01-2026` are day first; `2026-01-05` is read as it is. `31/02/2026` is null.
 */
export function parseFrenchDate(text: string): string | null {
  const trimmed = text.trim();
  const french = FRENCH_DATE.exec(trimmed);
  if (french) return isoIfReal(Number(french[3]), Number(french[2]), Number(french[1]));
  const iso = ISO_DATE.exec(trimmed);
  if (iso) return isoIfReal(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  return null;
}

/** A day `YYYY-MM-DD` in the French way, `dd/mm/yyyy` (the reverse of {@link parseFrenchDate}); other text as it is. */
export function frenchDay(day: string): string {
  const [year, month, date] = day.split('-');
  return year && month && date ? `${date}/${month}/${year}` : day;
}
