import { createErrorFactory } from '../../lib/errors.ts';

export const createDonationNotFoundError = createErrorFactory({
  code: 'donations.not_found',
  status: 404,
  title: 'Not Found',
});

export const createDonationSubscriberUnknownError = createErrorFactory({
  code: 'donations.unknown_subscriber',
  status: 400,
  title: 'Bad Request',
});

export const createFutureDonationDateError = createErrorFactory({
  code: 'donations.future_date',
  status: 400,
  title: 'Bad Request',
});

/** A donation already on a tax receipt cannot be deleted: the receipt was given to the donor. */
export const createDonationReceiptedError = createErrorFactory({
  code: 'donations.receipted',
  status: 409,
  title: 'Conflict',
});

export const createNoDonationsForYearError = createErrorFactory({
  code: 'donations.none_for_year',
  status: 404,
  title: 'Not Found',
});

export const createDonorWithoutEmailError = createErrorFactory({
  code: 'donations.donor_without_email',
  status: 400,
  title: 'Bad Request',
});

export const createReceiptNotFoundError = createErrorFactory({
  code: 'receipts.not_found',
  status: 404,
  title: 'Not Found',
});

/** A cancelled receipt stays cancelled: it cannot be cancelled or replaced again. */
export const createReceiptCancelledError = createErrorFactory({
  code: 'receipts.cancelled',
  status: 409,
  title: 'Conflict',
});
