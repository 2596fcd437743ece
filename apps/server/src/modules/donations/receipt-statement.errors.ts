import { createErrorFactory } from '../../lib/errors.ts';

/**
 * A receipt of the annual statement (CGI art. 222 bis) is made out in a currency without an ISO 4217
 * code, so no exchange rate can convert it to euros; `detail` names the receipt and the currency.
 */
export const createStatementCurrencyError = createErrorFactory({
  code: 'receipts.statement_currency_unknown',
  status: 409,
  title: 'Conflict',
});
