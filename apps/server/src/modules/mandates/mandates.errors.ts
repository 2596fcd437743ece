import { createErrorFactory } from '../../lib/errors.ts';

/** No mandate has this id; `detail` names it. */
export const createMandateNotFoundError = createErrorFactory({
  code: 'mandates.not_found',
  status: 404,
  title: 'Not Found',
});

/**
 * Another mandate has this reference (RUM): a reference identifies one mandate of the creditor for
 * good (EPC rulebook, AT-01); `errors` name `rum`.
 */
export const createMandateReferenceTakenError = createErrorFactory({
  code: 'mandates.rum_taken',
  status: 409,
  title: 'Conflict',
});

/**
 * The mandate has been used for a collection: it is kept as the proof of the debtor's authorisation,
 * so it cannot be deleted, only revoked.
 */
export const createMandateUsedError = createErrorFactory({
  code: 'mandates.used',
  status: 409,
  title: 'Conflict',
});

/** The mandate is revoked or expired: it can no longer be changed nor revoked; a new one must be signed. */
export const createMandateNotActiveError = createErrorFactory({
  code: 'mandates.not_active',
  status: 409,
  title: 'Conflict',
});

/** The date of signature is after today in the organisation's time zone; `errors` name `signedOn`. */
export const createFutureSignatureError = createErrorFactory({
  code: 'mandates.future_signature',
  status: 400,
  title: 'Bad Request',
});
