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

/**
 * A donation that is the gift of a sale standing (part 2 §2.6) follows its sale: it is deleted with
 * the sale, or refunded by the sale's credit note, never on its own.
 */
export const createDonationFromSaleError = createErrorFactory({
  code: 'donations.from_sale',
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

/**
 * The currency a receipt is made out in (EUR for the Cerfa, CHF for the attestation) is not among the
 * currencies, or a gift's currency has no ISO 4217 code to look its rate up by.
 */
export const createReceiptCurrencyError = createErrorFactory({
  code: 'receipts.currency_unknown',
  status: 409,
  title: 'Conflict',
});
