import { codes as iso4217Codes } from 'currency-codes';
import { z } from 'zod';
import { isIsoDate, MAX_ID, plainString } from './common.ts';
import { CURRENCY_CODE_PATTERN } from './iso-codes.ts';

/** A currency code as the database keeps it: 3 upper-case letters (ISO 4217). */
export { CURRENCY_CODE_PATTERN };

/**
 * Exchange rates (not in the spec; docs/decisions/021): the euro foreign exchange reference rates of
 * the European Central Bank, typed in one by one or imported from the ECB's `eurofxref-hist.csv`. A
 * rate is in the ECB's convention: units of the currency for 1 euro (`CHF 0.9412` on a day means
 * 1 EUR = 0.9412 CHF, so 100 CHF = 100 / 0.9412 EUR). Gifts in another currency are converted to euros
 * at the rate of the day of the gift (or the last one published in the 7 days before it).
 */

/** Former currencies the ECB published rates for before they joined the euro or were redenominated. */
const FORMER_ECB_CURRENCIES = ['CYP', 'EEK', 'GRD', 'LTL', 'LVL', 'MTL', 'ROL', 'SIT', 'SKK', 'TRL'];

/**
 * The ISO 4217 codes a rate can be saved for: ISO 4217's list one (the kept library of
 * docs/decisions/022) and the former currencies the ECB published rates for. Not EUR: a euro is 1 euro.
 */
export const EXCHANGE_RATE_CURRENCIES: readonly string[] = [
  ...new Set([...iso4217Codes(), ...FORMER_ECB_CURRENCIES]),
]
  .filter((code) => code !== 'EUR' && CURRENCY_CODE_PATTERN.test(code))
  .sort();

/** Most decimals of a rate (`numeric(18,6)`). */
export const EXCHANGE_RATE_DECIMALS = 6;

/** The largest rate accepted: below a billion units for 1 euro, so that 6 decimals stay exact. */
export const MAX_EXCHANGE_RATE = 999_999_999;

/** Largest ECB file the import takes, in bytes (10 MB; the whole history since 1999 is about 2 MB). */
export const EXCHANGE_RATES_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** True when `value` has at most {@link EXCHANGE_RATE_DECIMALS} decimals. */
export function hasAtMostSixDecimals(value: number): boolean {
  return Number(value.toFixed(EXCHANGE_RATE_DECIMALS)) === value;
}

/** One rate: on `date` (`YYYY-MM-DD`), 1 euro was worth `rate` units of `currency` (ISO 4217, e.g. CHF). */
export const exchangeRateSchema = z.object({
  date: z.string(),
  currency: z.string(),
  rate: z.number(),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

const currencyMessage = 'Choose the currency by its 3-letter ISO code, such as CHF or USD.';

/**
 * `POST /api/exchange-rates` body: the rate of one currency on one day, in units of the currency for 1
 * euro (more than 0, at most 6 decimals). `currency` is an ISO 4217 code of
 * {@link EXCHANGE_RATE_CURRENCIES} (upper case; never EUR); `date` any day that exists, `YYYY-MM-DD`.
 */
export const saveExchangeRateSchema = z.object({
  date: z
    .string({ message: 'The date is required.' })
    .refine(isIsoDate, { message: 'The date is a day written YYYY-MM-DD.' }),
  currency: z.enum(EXCHANGE_RATE_CURRENCIES, {
    error: (issue) =>
      issue.input === 'EUR' ? 'A euro is always 1 euro: choose another currency.' : currencyMessage,
  }),
  rate: z
    .number({ message: 'The rate is required.' })
    .positive({ message: 'The rate must be more than 0.' })
    .max(MAX_EXCHANGE_RATE, { message: 'The rate is too large.' })
    .refine(hasAtMostSixDecimals, { message: 'The rate can have at most 6 decimals.' }),
});
export type SaveExchangeRateInput = z.infer<typeof saveExchangeRateSchema>;

const optionalDate = z
  .string()
  .optional()
  .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' });

/**
 * `GET /api/exchange-rates` query: `currency` one ISO code (any case; empty = all), `from` and `to`
 * days `YYYY-MM-DD`, both included (empty = open); paging as every list (`listfrom` 1-based,
 * `listlength` up to 500, 50 by default).
 */
export const exchangeRateListQuerySchema = z.object({
  currency: plainString()
    .trim()
    .toUpperCase()
    .regex(/^([A-Z]{3})?$/, { message: 'A currency is a 3-letter code, such as CHF.' })
    .optional(),
  from: optionalDate,
  to: optionalDate,
  listfrom: z.coerce.number().int().min(1).max(MAX_ID).default(1),
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type ExchangeRateListQuery = z.infer<typeof exchangeRateListQuerySchema>;

/** `GET /api/exchange-rates` answer: how many rates match, and one page of them, newest day first. */
export const exchangeRateListSchema = z.object({
  count: z.number().int().min(0),
  models: z.array(exchangeRateSchema),
});
export type ExchangeRateList = z.infer<typeof exchangeRateListSchema>;

/**
 * `POST /api/exchange-rates/import` answer: `imported` rates newly stored; `skipped` rates of the file
 * already stored for their day and currency, with the same rate or another (a stored rate is never
 * changed). Cells `N/A` or empty hold no rate and are in neither count.
 */
export const exchangeRateImportSchema = z.object({
  imported: z.number().int().min(0),
  skipped: z.number().int().min(0),
});
export type ExchangeRateImport = z.infer<typeof exchangeRateImportSchema>;
