import { z } from 'zod';
import { MAX_ID, plainString } from './common.ts';

// Bank statements (docs/decisions/033): the credits of camt.053 / camt.054 files matched to the
// invoices they pay, and a review queue for the rest. Amounts are units of the entry's currency
// (numbers with at most two decimals); dates are `YYYY-MM-DD`.

/** The largest statement file (or ZIP of them) `POST /api/bank-statements` takes: 50 MB. */
export const BANK_STATEMENT_MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * Where an entry stands: `matched` to an invoice on import, `unmatched` waiting in the review queue,
 * `assigned` by a person (to an invoice or as a donation), `dismissed` with a reason, `listed` (a
 * debit, a return or a reversal: kept for the record, never matched).
 */
export const statementEntryStatusSchema = z.enum(['matched', 'unmatched', 'assigned', 'dismissed', 'listed']);
export type StatementEntryStatus = z.infer<typeof statementEntryStatusSchema>;

/**
 * `POST /api/bank-statements` answer: `entries` read from the file(s); of them `matched` to an
 * invoice, `unmatched` credits left for review, `duplicates` already imported (by the bank's entry
 * reference: the same file twice adds nothing), and `listed` debits, returns and reversals.
 */
export const statementImportSchema = z.object({
  entries: z.number().int(),
  matched: z.number().int(),
  unmatched: z.number().int(),
  duplicates: z.number().int(),
  listed: z.number().int(),
});
export type StatementImport = z.infer<typeof statementImportSchema>;

/**
 * One entry of a statement: booking day, amount and ISO 4217 currency, `direction`, the debtor's
 * name and IBAN, the structured `reference` (QR or RF) when given, the remittance `text`, its
 * status and, once matched or assigned, the sale, payment or donation it became; who decided what
 * and why for an assigned or dismissed one.
 */
export const bankStatementEntrySchema = z.object({
  id: z.number().int(),
  entryRef: z.string(),
  bookingDate: z.string(),
  amount: z.number(),
  currency: z.string(),
  direction: z.enum(['credit', 'debit']),
  debtorName: z.string().optional(),
  debtorIban: z.string().optional(),
  reference: z.string().optional(),
  text: z.string(),
  status: statementEntryStatusSchema,
  saleId: z.number().int().optional(),
  saleRef: z.number().int().optional(),
  donationId: z.number().int().optional(),
  subscriberId: z.number().int().optional(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  dismissReason: z.string().optional(),
});
export type BankStatementEntry = z.infer<typeof bankStatementEntrySchema>;

/** `GET /api/bank-statements/entries` query: one status (`unmatched` by default) and a page. */
export const statementEntryListQuerySchema = z.object({
  status: z
    .enum(statementEntryStatusSchema.options, {
      message: 'Choose matched, unmatched, assigned, dismissed or listed.',
    })
    .default('unmatched'),
  listfrom: z.coerce.number().int().min(1).max(MAX_ID).default(1),
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type StatementEntryListQuery = z.infer<typeof statementEntryListQuerySchema>;

/** `GET /api/bank-statements/entries` answer: how many entries have the status, and one page, oldest first. */
export const statementEntryListSchema = z.object({
  count: z.number().int(),
  models: z.array(bankStatementEntrySchema),
});
export type StatementEntryList = z.infer<typeof statementEntryListSchema>;

const idSchema = (message: string) =>
  z.number({ message }).int({ message }).positive({ message }).max(MAX_ID, { message });

/**
 * `POST /api/bank-statements/entries/{id}/assign` body, one of:
 * - `{saleId, as: "payment"}`: a payment of that sale's issued invoice (part of it allowed, not more
 *   than remains to pay), in the invoice's currency;
 * - `{as: "donation", subscriberId?}`: a donation of that subscriber, or of the one whose IBAN the
 *   debtor's is when left out;
 * - `{dismiss: reason}`: nothing to record (1-500 characters), e.g. a refund from a supplier.
 */
export const assignStatementEntrySchema = z.union(
  [
    z.object({ as: z.literal('payment'), saleId: idSchema('Choose the sale.') }),
    z.object({ as: z.literal('donation'), subscriberId: idSchema('Choose the subscriber.').optional() }),
    z.object({
      dismiss: plainString({ message: 'Give the reason.' })
        .trim()
        .min(1, { message: 'Give the reason.' })
        .max(500, { message: 'At most 500 characters.' }),
    }),
  ],
  { message: 'Assign the entry to a sale, record it as a donation, or dismiss it with a reason.' },
);
export type AssignStatementEntry = z.infer<typeof assignStatementEntrySchema>;
