const FRENCH = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `1234.5, '€'` -> `1 234,50 €` (French format, 2 decimals, symbol after): history lines and documents. */
export function formatAmount(units: number, symbol: string): string {
  return `${FRENCH.format(units)} ${symbol}`.trim();
}

/** Units (a `numeric(12,2)` string or a number) to integer cents, exactly. */
export function toCents(units: string | number): number {
  return Math.round(Number(units) * 100);
}

/** Integer cents to the `numeric(12,2)` string the database stores. */
export function centsToNumeric(cents: number): string {
  return (cents / 100).toFixed(2);
}
