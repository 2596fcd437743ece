import { z } from 'zod';
import {
  csvDialectSchema,
  hasAtMostTwoDecimals,
  isIsoDate,
  MAX_ID,
  MIN_INTEGER,
  plainString,
  queryFlagSchema,
} from './common.ts';
import { bulkEmailDraftShape, subscriberEmailListInputSchema } from './subscribers.ts';

/**
 * Sales (part 2 §2.5, §2.6, §3 Sale*, §5 New sale, §7 Sales, §9 constants).
 * Amounts in units of the sale's currency (euros, or francs for a Swiss sale), at most 2 decimals.
 */

const price = (message: string) =>
  z
    .number({ message })
    .min(0, { message: 'Prices cannot be negative.' })
    .max(9_999_999_999.99, { message: 'The amount is too large.' })
    .refine(hasAtMostTwoDecimals, { message: 'At most 2 decimals.' });

const text = (max: number) =>
  plainString()
    .trim()
    .max(max, { message: `At most ${max} characters.` })
    .nullish()
    .transform((value) => value ?? '');

/** A line of the create payload (part 2 §3 Sale line item). The server reads the product's name itself. */
export const saleLineInputSchema = z.object({
  productId: z
    .number({ message: 'Choose a product.' })
    .int()
    .positive({ message: 'Choose a product.' })
    .max(MAX_ID, { message: 'Choose a product.' }),
  productName: plainString().max(300).optional(),
  quantity: z
    .number({ message: 'The quantity must be a whole number above 0.' })
    .int({ message: 'The quantity must be a whole number above 0.' })
    .positive({ message: 'The quantity must be a whole number above 0.' })
    .max(1_000_000, { message: 'The quantity is too large.' }),
  /**
   * The catalogue's euro price, or 0 for a free line. The server checks the price of the sale's
   * currency (euro, or Swiss when `swissSale`) against the catalogue and stores the catalogue's.
   */
  euroUnitPrice: price('The euro price is required.'),
  /** The catalogue's Swiss price, or 0 for a free line. */
  swissUnitPrice: price('The Swiss price is required.'),
  /** Optional: when sent, it must be the price charged (the euro or Swiss one above). */
  unitPrice: z.number().optional(),
});
export type SaleLineInput = z.infer<typeof saleLineInputSchema>;

/** `POST /api/sales` body: part 2 §3 Sale create payload. */
export const createSaleInputSchema = z.object({
  subscriberId: z
    .number({ message: 'Choose the subscriber.' })
    .int()
    .positive({ message: 'Choose the subscriber.' })
    .max(MAX_ID, { message: 'Choose the subscriber.' }),
  fullName: text(300),
  association: text(200),
  currencySymbol: text(10),
  discountPercentage: z
    .number({ message: 'The discount must be a number.' })
    .min(0, { message: 'The discount is between 0 and 100 %.' })
    .max(100, { message: 'The discount is between 0 and 100 %.' })
    .nullish()
    .transform((value) => value ?? 0),
  donation: price('The donation must be a number.')
    .nullish()
    .transform((value) => value ?? 0),
  deliveryCharge: price('The delivery charge must be a number.')
    .nullish()
    .transform((value) => value ?? 0),
  includeThanks: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  includePaymentTerms: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  paymentTermDays: z
    .number({ message: 'Payment terms are a number of days.' })
    .int({ message: 'Payment terms are a number of days.' })
    .min(0, { message: 'Payment terms are a number of days.' })
    .max(365, { message: 'At most 365 days.' })
    .nullish()
    .transform((value) => value ?? 30),
  swissSale: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  addr1: text(200),
  addr2: text(200),
  addr3: text(200),
  town: text(100),
  postcode: text(20),
  orderNumber: text(100),
  deliveryAddress: text(1000),
  /** The country's full name (part 2 §3). */
  country: text(100),
  items: z
    .array(saleLineInputSchema, { message: 'Please add some product lines.' })
    .min(1, { message: 'Please add some product lines.' })
    .max(200, { message: 'At most 200 lines.' }),
  notes: text(5000),
});
export type CreateSaleInput = z.input<typeof createSaleInputSchema>;
export type CreateSale = z.output<typeof createSaleInputSchema>;

/** A stored line (part 2 §3 Sale line item), with the line total computed by the server. */
export const saleLineSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  quantity: z.number().int(),
  euroUnitPrice: z.number(),
  swissUnitPrice: z.number(),
  unitPrice: z.number(),
  lineTotal: z.number(),
});

/** A sale is `active` until a credit note cancels it; then `cancelled`, with that note's number. */
export const saleStatusSchema = z.enum(['active', 'cancelled']);
export type SaleStatus = z.infer<typeof saleStatusSchema>;

/**
 * The fields every sale answer carries about its invoice: `invoiceIssued` once its PDF was handed
 * out (downloaded or emailed; the sale can then only be cancelled, never deleted), `status` and
 * `creditNoteNumber` (null until cancelled).
 */
const saleStatusShape = {
  invoiceIssued: z.boolean(),
  status: saleStatusSchema,
  creditNoteNumber: z.number().int().positive().nullable(),
};

/**
 * Where an issued invoice stands (docs/decisions/032): `paid` once its payments cover the total,
 * `overdue` past its due date otherwise, `partiallyPaid` or `unpaid` before. Null while the invoice is
 * not issued, and for a sale cancelled by a credit note (nothing is due).
 */
export const paymentStatusSchema = z.enum(['unpaid', 'partiallyPaid', 'paid', 'overdue']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/**
 * A payment of an invoice: the day it was paid (`YYYY-MM-DD`), the amount in the sale's currency,
 * `source` `manual` (typed by staff) or `statement` (a bank statement entry, `entryRef` its bank
 * reference), who recorded it.
 */
export const salePaymentSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  amount: z.number(),
  source: z.enum(['manual', 'statement']),
  entryRef: z.string().optional(),
  recordedBy: z.string(),
});
export type SalePayment = z.infer<typeof salePaymentSchema>;

/**
 * The reminders of an overdue invoice (docs/decisions/034): how many were emailed (`reminderLevel`, 0
 * for none) and the day of the last (`YYYY-MM-DD`, null for none).
 */
function reminderShape() {
  return { reminderLevel: z.number().int(), lastReminderOn: z.string().nullable() };
}

/**
 * The payment fields of a sale's detail: `paymentStatus` (see {@link paymentStatusSchema}), `dueDate`
 * (`YYYY-MM-DD`: the invoice's date, the day of the sale in the organisation's time zone, plus the
 * sale's payment terms, as the invoice prints it; null before the invoice is issued), `paidAmount` (units of the sale's currency) and the payments, oldest
 * first.
 */
const salePaymentShape = {
  paymentStatus: paymentStatusSchema.nullable(),
  dueDate: z.string().nullable(),
  paidAmount: z.number(),
  payments: z.array(salePaymentSchema),
  ...reminderShape(),
};

/**
 * `POST /api/sales/{id}/payments` body: a payment received (part of the invoice allowed): its day
 * (`YYYY-MM-DD`, not after today in the organisation's time zone) and amount (units of the sale's
 * currency, more than 0, at most 2 decimals, at most what remains to pay: 400 naming `amount`).
 */
export const recordPaymentSchema = z.object({
  date: z
    .string({ message: 'The date is required.' })
    .refine(isIsoDate, { message: 'Dates are written YYYY-MM-DD.' }),
  amount: z
    .number({ message: 'The amount is required.' })
    // At least a cent: 1e-9 has "at most 2 decimals" once rounded, to 0.00.
    .min(0.01, { message: 'The amount must be more than 0.' })
    .max(9_999_999_999.99, { message: 'The amount is too large.' })
    .refine(hasAtMostTwoDecimals, { message: 'At most 2 decimals.' }),
});
export type RecordPaymentInput = z.infer<typeof recordPaymentSchema>;

/** `POST /api/sales` answer (part 2 §3 Sale created response). `dateAdded` is ISO 8601. */
export const saleSchema = z.object({
  id: z.number().int().positive(),
  ref: z.number().int().positive(),
  subscriberId: z.number().int().positive(),
  subscriberName: z.string(),
  total: z.number(),
  currencyName: z.string(),
  currencySymbol: z.string(),
  addedBy: z.string(),
  dateAdded: z.string(),
  postCode: z.string(),
  saleDetails: z.array(saleLineSchema),
  ...saleStatusShape,
  /**
   * The reference the buyer quotes when paying, fixed when the invoice is issued (docs/decisions/031):
   * a Swiss QR reference (27 digits) when the account of the sale's currency is a QR-IBAN, else an
   * ISO 11649 creditor reference (`RF…`); null before the invoice is issued, and for invoices issued
   * before references existed.
   */
  paymentReference: z.string().nullable(),
  ...salePaymentShape,
});
export type Sale = z.infer<typeof saleSchema>;

/** One row of `GET /api/sales` (part 2 §7). `dateAdded` is ISO 8601. */
export const saleSummarySchema = z.object({
  id: z.number().int().positive(),
  subscriberId: z.number().int().positive(),
  fullName: z.string(),
  total: z.number(),
  currencyName: z.string(),
  currencySymbol: z.string(),
  dateAdded: z.string(),
  postcode: z.string(),
  address: z.string(),
  ref: z.number().int().positive(),
  ...saleStatusShape,
  paymentStatus: paymentStatusSchema.nullable(),
  ...reminderShape(),
});
export type SaleSummary = z.infer<typeof saleSummarySchema>;

/** `POST /api/sales/{id}/cancel` body: why the invoiced sale is cancelled, printed on the credit note. */
export const cancelSaleInputSchema = z.object({
  reason: plainString({ message: 'Give the reason for the cancellation.' })
    .trim()
    .min(1, { message: 'Give the reason for the cancellation.' })
    .max(500, { message: 'At most 500 characters.' }),
});
export type CancelSaleInput = z.infer<typeof cancelSaleInputSchema>;

/**
 * `POST /api/sales/{id}/cancel` answer: the credit note (avoir) that cancels the sale's invoice.
 * `amount` is the sale's total in its currency; `issuedAt` is ISO 8601.
 */
export const creditNoteSchema = z.object({
  creditNoteNumber: z.number().int().positive(),
  saleId: z.number().int().positive(),
  amount: z.number(),
  issuedAt: z.string(),
});
export type CreditNote = z.infer<typeof creditNoteSchema>;

const optionalNumber = z.union([z.literal(''), z.coerce.number()]).optional();
/** An optional id in a query string: empty for any, else a whole number (-1 = any). */
const optionalQueryId = z
  .union([z.literal(''), z.coerce.number().int().min(MIN_INTEGER).max(MAX_ID)])
  .optional();
/** An optional reference to a sale or a product in a query string: empty for any. */
const optionalReference = z.union([z.literal(''), z.coerce.number().int().min(0).max(MAX_ID)]).optional();
const optionalDate = z
  .string()
  .optional()
  .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' });

/** Only the issued invoices in this payment status (docs/decisions/032); empty for any. */
const paymentStatusFilterSchema = z
  .union([z.literal(''), paymentStatusSchema], {
    message: 'Choose unpaid, partiallyPaid, paid or overdue.',
  })
  .optional();

/**
 * `GET /api/sales` query (part 2 §7): `id` subscriber (-1 = any), `salesref` the sale reference,
 * `greaterThan`/`lessThan` exclusive bounds on the total, `productid` sales with that product.
 */
export const saleSearchQuerySchema = z.object({
  id: optionalQueryId,
  salesref: optionalReference,
  name: plainString().trim().max(100).optional(),
  zip: plainString().trim().max(20).optional(),
  addedafter: optionalDate,
  addedbefore: optionalDate,
  greaterThan: optionalNumber,
  lessThan: optionalNumber,
  productid: optionalReference,
  paymentStatus: paymentStatusFilterSchema,
  listfrom: z.coerce.number().int().min(1).default(1),
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type SaleSearchQuery = z.infer<typeof saleSearchQuerySchema>;

/** New-sale defaults (part 2 §9). */
export const NEW_SALE_DEFAULTS = {
  discountPercentage: 0,
  donation: 0,
  deliveryCharge: 0,
  paymentTermDays: 30,
  includeThanks: false,
  includePaymentTerms: false,
  swissSale: false,
  country: 0,
} as const;

/**
 * `GET /api/sales/export` query (part 2 §7): its own names: `amountMin`/`amountMax` (exclusive),
 * `product`; `isdetailed` true gives one row per line. Paging parameters are accepted and ignored:
 * an export has every matching sale. `dialect` picks the CSV dialect (`rfc4180` or `excel-fr`).
 */
export const saleExportQuerySchema = z.object({
  id: optionalQueryId,
  name: plainString().trim().max(100).optional(),
  zip: plainString().trim().max(20).optional(),
  addedafter: optionalDate,
  addedbefore: optionalDate,
  amountMin: optionalNumber,
  amountMax: optionalNumber,
  product: optionalReference,
  /** As the search's: the export has the rows the list shows. */
  paymentStatus: paymentStatusFilterSchema,
  isdetailed: queryFlagSchema,
  listfrom: z.coerce.number().int().optional(),
  listlength: z.coerce.number().int().optional(),
  dialect: csvDialectSchema,
});
export type SaleExportQuery = z.infer<typeof saleExportQuerySchema>;

/** `GET /api/sales/salecount?from&to` (part 2 §7): sales added from `from` to `to`, both days included. */
export const saleCountQuerySchema = z
  .object({
    from: z.string().refine(isIsoDate, { message: 'Dates are written YYYY-MM-DD.' }),
    to: z.string().refine(isIsoDate, { message: 'Dates are written YYYY-MM-DD.' }),
    dialect: csvDialectSchema,
  })
  .refine((value) => value.from <= value.to, {
    message: 'The start date must not be after the end date.',
    path: ['to'],
  });

/**
 * `POST /api/sales/email/list` body (part 2 §3 Sales email-list payload): the subject and message, and
 * the sales search filters (`id` subscriber, `amountMin`/`amountMax` exclusive totals). One message
 * goes to each distinct buyer behind the matching sales who has an email address.
 */
export const saleEmailListInputSchema = subscriberEmailListInputSchema
  .pick({ subject: true, message: true })
  .extend({
    id: z.union([z.literal(''), z.null(), z.coerce.number().int().min(MIN_INTEGER).max(MAX_ID)]).optional(),
    name: plainString().trim().max(100).nullish(),
    postCode: plainString().trim().max(20).nullish(),
    salesRef: z.union([z.literal(''), z.null(), z.coerce.number().int().min(0).max(MAX_ID)]).optional(),
    addedAfter: z
      .string()
      .nullish()
      .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' }),
    addedBefore: z
      .string()
      .nullish()
      .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' }),
    amountMin: z.union([z.literal(''), z.null(), z.coerce.number()]).optional(),
    amountMax: z.union([z.literal(''), z.null(), z.coerce.number()]).optional(),
    productId: z.union([z.literal(''), z.null(), z.coerce.number().int().min(0).max(MAX_ID)]).optional(),
  });
export type SaleEmailList = z.infer<typeof saleEmailListInputSchema>;

/**
 * `POST /api/sales/email/list/preview` body: the sales email-list payload with the subject and message
 * as written so far (may be empty); answers who would receive it and the first one's message.
 */
export const saleEmailPreviewInputSchema = saleEmailListInputSchema.extend(bulkEmailDraftShape);
export type SaleEmailPreview = z.infer<typeof saleEmailPreviewInputSchema>;
