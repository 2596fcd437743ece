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

/** An amount in French locale with 2 decimals, e.g. 1 234,50. */
export function formatMoney(value: number): string {
  return moneyFormat.format(value);
}
