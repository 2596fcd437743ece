import { createErrorFactory } from '../../lib/errors.ts';

export const createSubscriberNotFoundError = createErrorFactory({
  code: 'subscribers.not_found',
  status: 404,
  title: 'Not Found',
});

/** Someone saved the subscriber after this copy was read. */
export const createStaleSubscriberError = createErrorFactory({
  code: 'subscribers.stale',
  status: 409,
  title: 'Conflict',
});

export const createUnknownReferenceError = createErrorFactory({
  code: 'subscribers.unknown_reference',
  status: 400,
  title: 'Bad Request',
});

export const createSubscriberIdMismatchError = createErrorFactory({
  code: 'validation.id_mismatch',
  status: 400,
  title: 'Bad Request',
});

/** The subscriber was anonymised already: that cannot be done twice (docs/decisions/019). */
export const createSubscriberAnonymisedError = createErrorFactory({
  code: 'subscribers.anonymised',
  status: 409,
  title: 'Conflict',
});

/** An email consent dated after today (organisation's zone): a consent cannot be given in the future. */
export const createFutureConsentDateError = createErrorFactory({
  code: 'subscribers.future_consent_date',
  status: 400,
  title: 'Bad Request',
});
