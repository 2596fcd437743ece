import { createErrorFactory } from '../../lib/errors.ts';

export const createSaleNotFoundError = createErrorFactory({
  code: 'sales.not_found',
  status: 404,
  title: 'Not Found',
});

export const createSaleInvalidError = createErrorFactory({
  code: 'sales.invalid',
  status: 400,
  title: 'Bad Request',
});

export const createSaleSubscriberUnknownError = createErrorFactory({
  code: 'sales.unknown_subscriber',
  status: 400,
  title: 'Bad Request',
});

/** The sale's invoice was handed out: it cannot be deleted, only cancelled by a credit note. */
export const createSaleInvoiceIssuedError = createErrorFactory({
  code: 'sales.invoice_issued',
  status: 409,
  title: 'Conflict',
});

/**
 * The sale's gift (its "Dons", part 2 §2.6) is on a tax receipt (CGI art. 200): the sale cannot be
 * deleted until that receipt is cancelled.
 */
export const createSaleGiftReceiptedError = createErrorFactory({
  code: 'sales.gift_receipted',
  status: 409,
  title: 'Conflict',
});

/** The sale already has a credit note. */
export const createSaleAlreadyCancelledError = createErrorFactory({
  code: 'sales.already_cancelled',
  status: 409,
  title: 'Conflict',
});

/** A credit note cancels an issued invoice; a sale whose invoice was never issued is deleted instead. */
export const createSaleInvoiceNotIssuedError = createErrorFactory({
  code: 'sales.invoice_not_issued',
  status: 409,
  title: 'Conflict',
});

export const createCreditNoteNotFoundError = createErrorFactory({
  code: 'sales.credit_note_not_found',
  status: 404,
  title: 'Not Found',
});

/**
 * The invoice must end with a Swiss QR-bill (SIX QR-bill implementation guidelines v2.3) that cannot
 * be made: the field errors name what to complete, either settings fields (`bankAccounts`,
 * `addressStreet`, `addressPostcode`, `addressTown`, `addressCountry`, `organisationName`) or the
 * sale's buyer address (`postcode`, `town`, `country`, `addr1`, `fullName`). The invoice is then not
 * issued.
 */
export const createQrBillImpossibleError = createErrorFactory({
  code: 'sales.qr_bill_impossible',
  status: 409,
  title: 'Conflict',
});

/** A reminder of an invoice that is not overdue (not issued, paid, cancelled or not yet due); `detail` says which. */
export const createSaleNotOverdueError = createErrorFactory({
  code: 'sales.not_overdue',
  status: 409,
  title: 'Conflict',
});

/** A reminder sooner than the settings' interval after the last one; `detail` names the first day allowed. */
export const createReminderTooSoonError = createErrorFactory({
  code: 'sales.reminder_too_soon',
  status: 409,
  title: 'Conflict',
});

/** A reminder to a buyer without an email address (or deleted). */
export const createSaleNoEmailError = createErrorFactory({
  code: 'sales.no_email',
  status: 409,
  title: 'Conflict',
});
