import { code as currencyByCode } from 'currency-codes';
import countryCodes from 'i18n-iso-countries';
import { plainString } from './common.ts';

/**
 * ISO codes carried by the reference lists and the settings, for the tax documents that differ by the
 * donor's country of residence (a French Cerfa 11580*05, a Swiss attestation de dons) and for the Swiss
 * QR-bill (docs/decisions/022). The lists of codes are kept libraries' (i18n-iso-countries for
 * ISO 3166-1, currency-codes for ISO 4217's list one), not ours.
 */

/** Two capital letters A–Z, the shape of an ISO 3166-1 alpha-2 code (`FR`, `CH`). */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;
/** Three capital letters A–Z, the shape of an ISO 4217 alphabetic code (`EUR`, `CHF`). */
export const CURRENCY_CODE_PATTERN = /^[A-Z]{3}$/;

export const COUNTRY_CODE_FORMAT_MESSAGE = 'The ISO code is two capital letters, e.g. FR or CH.';
export const COUNTRY_CODE_UNKNOWN_MESSAGE = 'This is not an ISO 3166-1 alpha-2 country code.';
export const CURRENCY_CODE_FORMAT_MESSAGE = 'The ISO code is three capital letters, e.g. EUR or CHF.';
export const CURRENCY_CODE_UNKNOWN_MESSAGE = 'This is not an ISO 4217 currency code.';

/** True when `value` is an assigned ISO 3166-1 alpha-2 code, in capitals (`FR`; not `fr`, `FRA` or `ZZ`). */
export function isCountryCode(value: string): boolean {
  return COUNTRY_CODE_PATTERN.test(value) && countryCodes.isValid(value);
}

/** True when `value` is an ISO 4217 alphabetic code of list one, in capitals (`EUR`; not `eur` or `ABC`). */
export function isCurrencyCode(value: string): boolean {
  return CURRENCY_CODE_PATTERN.test(value) && currencyByCode(value) !== undefined;
}

/** A schema of codes of one standard: their shape, the library's check, and why a code is refused. */
function codeSchema(
  pattern: RegExp,
  isCode: (value: string) => boolean,
  messages: { format: string; unknown: string },
) {
  return plainString({ message: messages.format })
    .regex(pattern, { message: messages.format, abort: true })
    .refine((value) => value === '' || isCode(value), { message: messages.unknown });
}

const COUNTRY_MESSAGES = { format: COUNTRY_CODE_FORMAT_MESSAGE, unknown: COUNTRY_CODE_UNKNOWN_MESSAGE };
const CURRENCY_MESSAGES = { format: CURRENCY_CODE_FORMAT_MESSAGE, unknown: CURRENCY_CODE_UNKNOWN_MESSAGE };

/** An ISO 3166-1 alpha-2 country code such as `FR`: two capital letters that name a country. */
export const countryCodeSchema = codeSchema(COUNTRY_CODE_PATTERN, isCountryCode, COUNTRY_MESSAGES);

/** A country code as {@link countryCodeSchema}, or empty for none: read as null. */
export const countryCodeOrEmptySchema = codeSchema(
  /^(?:[A-Z]{2})?$/,
  isCountryCode,
  COUNTRY_MESSAGES,
).transform((value) => value || null);

/** An ISO 4217 alphabetic currency code such as `EUR`, or empty for none: read as null. */
export const currencyCodeOrEmptySchema = codeSchema(
  /^(?:[A-Z]{3})?$/,
  isCurrencyCode,
  CURRENCY_MESSAGES,
).transform((value) => value || null);
