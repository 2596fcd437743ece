import { createErrorFactory } from '../../lib/errors.ts';

/** No statement entry has this id; `detail` names it. */
export const createStatementEntryNotFoundError = createErrorFactory({
  code: 'bank_statements.not_found',
  status: 404,
  title: 'Not Found',
});

/** The entry was matched, assigned, dismissed or listed already: a decision is taken once; `detail` says which. */
export const createStatementEntryDecidedError = createErrorFactory({
  code: 'bank_statements.decided',
  status: 409,
  title: 'Conflict',
});

/**
 * The entry cannot become what was asked: a payment of a sale in another currency, a donation without
 * a donor (no subscriber has the debtor's IBAN) or in a currency the list lacks; the field errors name
 * what to choose (`saleId`, `subscriberId`, `currency`).
 */
export const createStatementEntryAssignError = createErrorFactory({
  code: 'bank_statements.cannot_assign',
  status: 409,
  title: 'Conflict',
});

/** The upload is not a multipart form with one file of at most 50 MB; `detail` says which. */
export const createBadStatementUploadError = createErrorFactory({
  code: 'bank_statements.invalid_file',
  status: 400,
  title: 'Bad Request',
});
