const FRENCH = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `1234.5, '€'` -> `1 234,50 €` (French format, 2 decimals, symbol after): history lines and documents. */
export function formatAmount(units: number, symbol: string): string {
  return `${FRENCH.format(units)} ${symbol}`.trim();
}

// The one amount-to-cents rule, shared with the client.
export { toCents } from '@back-office/contract/money';

/** Integer cents to the `numeric(12,2)` string the database stores. */
export function centsToNumeric(cents: number): string {
  return (cents / 100).toFixed(2);
}
