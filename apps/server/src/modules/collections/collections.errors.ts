import { createErrorFactory } from '../../lib/errors.ts';

/** No collection (or no line of it) has this id; `detail` names it. */
export const createCollectionNotFoundError = createErrorFactory({
  code: 'collections.not_found',
  status: 404,
  title: 'Not Found',
});

/**
 * The due date is sooner than today plus the pre-notification days of the settings: each debtor must
 * be told at least that many days before (EPC rulebook PT-04.03, 14 days unless agreed otherwise);
 * `errors` name `dueDate` and the earliest date allowed.
 */
export const createCollectionTooSoonError = createErrorFactory({
  code: 'collections.too_soon',
  status: 409,
  title: 'Conflict',
});

/**
 * The pre-notification can no longer reach the debtors in time: the file of a draft is exported at
 * the latest on its due date minus the pre-notification days; `detail` names that day.
 */
export const createCollectionTooLateError = createErrorFactory({
  code: 'collections.too_late',
  status: 409,
  title: 'Conflict',
});

/** The settings lack what a collection needs (the SEPA creditor identifier, the creditor's IBAN); `errors` name it. */
export const createCollectionSetupError = createErrorFactory({
  code: 'collections.setup_incomplete',
  status: 409,
  title: 'Conflict',
});

/** The collection is exported or settled: its lines no longer change. */
export const createCollectionNotDraftError = createErrorFactory({
  code: 'collections.not_draft',
  status: 409,
  title: 'Conflict',
});

/** The collection's file was written in the other pain.008 version; `errors` name `version`. */
export const createCollectionVersionError = createErrorFactory({
  code: 'collections.version_mismatch',
  status: 409,
  title: 'Conflict',
});

/** Only an exported collection is settled (a draft has no file yet). */
export const createCollectionNotExportedError = createErrorFactory({
  code: 'collections.not_exported',
  status: 409,
  title: 'Conflict',
});

/** The collection is already settled: its donations are recorded once. */
export const createCollectionSettledError = createErrorFactory({
  code: 'collections.settled',
  status: 409,
  title: 'Conflict',
});

/** The draft has no pending line: there is nothing to export. */
export const createCollectionEmptyError = createErrorFactory({
  code: 'collections.empty',
  status: 409,
  title: 'Conflict',
});

/**
 * The upload of a return file is not a multipart form with one file of at most 10 MB; `detail` says
 * which. (A file that is not a pain.002 or camt.054 is `direct_debit.invalid_return_file`, the same 400.)
 */
export const createBadReturnFileError = createErrorFactory({
  code: 'direct_debit.invalid_return_file',
  status: 400,
  title: 'Bad Request',
});
