import { createErrorFactory } from '../../lib/errors.ts';

/**
 * A rate is already stored for this day and currency, and it is another: stored rates are never
 * changed (a tax receipt may have used it); `detail` names the day, the currency and the stored rate.
 */
export const createExchangeRateConflictError = createErrorFactory({
  code: 'exchange_rates.conflict',
  status: 409,
  title: 'Conflict',
});

/**
 * No rate of the currency on the day nor in the 7 days before it, so an amount cannot be converted;
 * `detail` names the day and the currency.
 */
export const createMissingExchangeRateError = createErrorFactory({
  code: 'exchange_rates.missing',
  status: 409,
  title: 'Conflict',
});

/**
 * The uploaded file is not the ECB's rates file: not a CSV, empty, too large, no `Date` column, a
 * column that is not a currency code, a day or a rate that cannot be read; `detail` says which.
 */
export const createBadRatesFileError = createErrorFactory({
  code: 'exchange_rates.bad_file',
  status: 400,
  title: 'Bad Request',
});
