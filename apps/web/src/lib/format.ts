/**
 * French formatting (part 1 §1 "French number formatting", §9: chart numbers in French locale;
 * prices and totals French locale with 2 decimals).
 */

const integerFormat = new Intl.NumberFormat('fr-FR');
const moneyFormat = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A count in French locale, e.g. 1 234. */
export function formatNumber(value: number): string {
  return integerFormat.format(value);
}

/**
 * "{count} rows" beside a search screen's heading (part 2 §2.1, §2.4), in French number format; a
 * count the server estimated (more than 10,000 matches) reads "about 250 000 rows".
 */
export function rowsText(count: number, exact = true): string {
  return `${exact ? '' : 'about '}${formatNumber(count)} rows`;
}

/** An amount in French locale with 2 decimals, e.g. 1 234,50. */
export function formatMoney(value: number): string {
  return moneyFormat.format(value);
}

/** A timestamp as `YYYY-MM-DD HH:mm` in local time (part 2 §2.3 history dates, "y-MM-dd HH:mm"). */
export function formatDateTime(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A timestamp as `dd/mm/yyyy HH:mm` in local time, the French order (e.g. 07/03/2026 14:05). */
export function formatFrenchDateTime(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A form field's or a query parameter's value as text: a number written out, a string trimmed,
 * nothing as `''` (part 2 §5: empty filters are sent as empty strings).
 */
export function fieldText(value: number | string | null | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'number' ? String(value) : value.trim();
}
