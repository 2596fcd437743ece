import type { ExchangeRateImport } from '@back-office/contract/exchange-rates';
import { formatNumber } from '../../lib/format.ts';

/** Spaces of every kind and the Swiss apostrophe only group thousands (`17 055,48`, `17'055.48`). */
const GROUPING = /[\s\u00a0\u202f'’]/g;
const GROUPED_BY_DOTS = /^\d{1,3}(\.\d{3})+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A rate as staff type it, or null when the text is no number: the comma is the decimal separator
 * (`0,9412`), and so is a single dot (`0.9412`, as the ECB writes it); spaces, the apostrophe, and dots
 * between groups of three digits before a comma group thousands (`17 055,48`, `1.234,5`). Any number
 * of decimals is read: the contract then says when there are more than 6.
 */
export function parseRate(text: string): number | null {
  let rest = text.replace(GROUPING, '');
  const comma = rest.indexOf(',');
  if (comma >= 0) {
    const whole = rest.slice(0, comma);
    rest = `${GROUPED_BY_DOTS.test(whole) ? whole.replaceAll('.', '') : whole}.${rest.slice(comma + 1)}`;
  } else if (GROUPED_BY_DOTS.test(rest) && (rest.match(/\./g)?.length ?? 0) > 1) {
    rest = rest.replaceAll('.', '');
  }
  return DECIMAL.test(rest) ? Number(rest) : null;
}

const rateFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 6 });

/** A rate the French way, with its decimals as stored (up to 6): `0,9412`, `17 055,48`. */
export function formatRate(rate: number): string {
  return rateFormat.format(rate);
}

/** What an import did: "1 234 rates imported, 5 skipped" (French number format). */
export function importResultText({ imported, skipped }: ExchangeRateImport): string {
  return `${formatNumber(imported)} ${imported === 1 ? 'rate' : 'rates'} imported, ${formatNumber(skipped)} skipped`;
}
