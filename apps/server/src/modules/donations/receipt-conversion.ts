import type { ReceiptKind } from '@back-office/contract/settings';
import type { RateOfDay } from '../exchange-rates/exchange-rates.service.ts';
import type { ReceiptDocument, ReceiptLine } from './donations.table.ts';

/**
 * The currency each document is made out in (ISO 4217): the Cerfa 11580*05 states the gift in euros
 * (CGI art. 200: the reduction is computed on amounts in euros); the Swiss attestation in francs, the
 * currency of the donor's tax return (LIFD art. 33a, 59 al. 1 let. c).
 */
export const DOCUMENT_CURRENCY = { cerfa: 'EUR', attestation: 'CHF' } as const satisfies Record<
  ReceiptDocument,
  string
>;

/**
 * The document a donor gets, by their country of residence (ISO 3166-1 alpha-2, or null when
 * unknown): France and its overseas departments (`GP`, `MQ`, `GF`, `RE`, `YT`: French tax residences)
 * the Cerfa, Switzerland the attestation, every other country and no country the organisation's choice
 * `otherCountries` (docs/decisions/024).
 */
export function documentForResidence(
  countryCode: string | null,
  otherCountries: ReceiptKind,
): ReceiptDocument {
  if (countryCode !== null && FRENCH_TAX_RESIDENCES.has(countryCode)) return 'cerfa';
  if (countryCode === 'CH') return 'attestation';
  return otherCountries;
}

/** Metropolitan France and the overseas departments, where French income tax applies (CGI art. 4 B). */
const FRENCH_TAX_RESIDENCES = new Set(['FR', 'GP', 'MQ', 'GF', 'RE', 'YT']);

/** Decimals a cross rate is kept to: the ECB publishes at most 4 to 6 significant decimals. */
const RATE_DECIMALS = 6;

/** A gift to receipt: its amount (`numeric` text, "25.00") in its own currency (ISO 4217 code). */
export type GiftToConvert = { id: number; donationDate: string; amount: string; currency: string };

/**
 * The receipt lines of `gifts` in `target` (ISO 4217): a gift in that currency as it is; any other
 * converted at the rate of its day (`rateFor`, units of a currency per 1 euro, the ECB's reference
 * rates, docs/decisions/021), the cross rate through the euro when neither is the euro. The line keeps
 * the original amount and currency, the rate used (units of the gift's currency for one unit of the
 * receipt's, rounded to 6 decimals) and its day; the amount is the original divided by that rate,
 * rounded to the cent, so anyone can redo the sum from what the receipt prints.
 * @throws what `rateFor` throws (409 `exchange_rates.missing` naming the day and the currency)
 */
export async function receiptLines(
  gifts: GiftToConvert[],
  target: string,
  rateFor: (currency: string, date: string) => Promise<RateOfDay>,
): Promise<ReceiptLine[]> {
  const lines: ReceiptLine[] = [];
  for (const gift of gifts) {
    const line = { donationId: gift.id, date: gift.donationDate, amount: gift.amount };
    if (gift.currency === target) {
      lines.push(line);
      continue;
    }
    const [from, to] = await Promise.all([
      rateFor(gift.currency, gift.donationDate),
      rateFor(target, gift.donationDate),
    ]);
    const rate = Number((from.rate / to.rate).toFixed(RATE_DECIMALS));
    const cents = Math.round(Math.round(Number(gift.amount) * 100) / rate);
    lines.push({
      ...line,
      amount: (cents / 100).toFixed(2),
      original: {
        amount: gift.amount,
        currency: gift.currency,
        rate: String(rate),
        // The older of the two days when the cross rate used two (a day without one of them).
        rateDate: [from.date, to.date].sort()[0] ?? from.date,
      },
    });
  }
  return lines;
}

/** The sum of the lines' amounts, as `numeric` text ("40.00"), added in cents. */
export function linesTotal(lines: ReceiptLine[]): string {
  const cents = lines.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0);
  return (cents / 100).toFixed(2);
}
