import { z } from 'zod';
import { csvDialectSchema, pageQueryShape, plainString } from './common.ts';

/**
 * The tax receipt register (not in the spec; docs/decisions/023): every receipt ever issued, by number,
 * none edited or deleted; a mistaken one is cancelled, or replaced by a new one that names it; each
 * carries the SHA-256 of its content chained to the previous receipt's, which `GET /api/receipts/verify`
 * checks. Amounts in units of the receipt's currency (euros or francs), 2 decimals.
 */

export const receiptStatusSchema = z.enum(['issued', 'cancelled']);
export type ReceiptStatus = z.infer<typeof receiptStatusSchema>;

const year = z.coerce
  .number({ message: 'The year must be between 1900 and 2999.' })
  .int({ message: 'The year must be between 1900 and 2999.' })
  .min(1900, { message: 'The year must be between 1900 and 2999.' })
  .max(2999, { message: 'The year must be between 1900 and 2999.' });

/** The register's filters: the year of the gifts, the status; both optional. */
const registerFilterShape = {
  year: year.optional(),
  status: receiptStatusSchema.optional(),
};

/** `GET /api/receipts` query: the filters and the page (`listfrom` 1-based, `listlength` up to 500). */
export const receiptRegisterQuerySchema = z.object({
  ...registerFilterShape,
  ...pageQueryShape,
});
export type ReceiptRegisterQuery = z.infer<typeof receiptRegisterQuerySchema>;

/** `GET /api/receipts/export` query: the register's filters and the CSV dialect. */
export const receiptRegisterExportQuerySchema = z.object({
  ...registerFilterShape,
  dialect: csvDialectSchema,
});
export type ReceiptRegisterExportQuery = z.infer<typeof receiptRegisterExportQuerySchema>;

/**
 * A receipt of the register. `issuedAt` ISO 8601; `subscriberName` as the receipt prints it; `amount`
 * in units of `currency` (its symbol); `replaces` / `replacedBy` the numbers of the receipt it replaces
 * and of the one that replaced it; `hash` the SHA-256 (hex) of its chained content.
 */
export const registeredReceiptSchema = z.object({
  number: z.number().int(),
  issuedAt: z.string(),
  subscriberId: z.number().int(),
  subscriberName: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: receiptStatusSchema,
  cancelReason: z.string().optional(),
  replaces: z.number().int().optional(),
  replacedBy: z.number().int().optional(),
  hash: z.string(),
});
export type RegisteredReceipt = z.infer<typeof registeredReceiptSchema>;

/** `GET /api/receipts` answer: how many match, and one page by number. */
export const receiptRegisterSchema = z.object({
  count: z.number().int(),
  models: z.array(registeredReceiptSchema),
});
export type ReceiptRegister = z.infer<typeof receiptRegisterSchema>;

/** `POST /api/receipts/{number}/cancel` and `…/replace` body: why (printed on the cancelled receipt). */
export const cancelReceiptSchema = z.object({
  reason: plainString({ message: 'Say why the receipt is cancelled.' })
    .trim()
    .min(3, { message: 'Say why the receipt is cancelled.' })
    .max(500, { message: 'The reason must have at most 500 characters.' }),
});
export type CancelReceipt = z.infer<typeof cancelReceiptSchema>;

/** The `{number}` of the receipt routes. */
export const receiptNumberParamsSchema = z.object({
  number: z.coerce
    .number({ message: 'A receipt number is a whole number from 1.' })
    .int({ message: 'A receipt number is a whole number from 1.' })
    .min(1, { message: 'A receipt number is a whole number from 1.' })
    .max(2_147_483_647, { message: 'A receipt number is a whole number from 1.' }),
});

/**
 * `GET /api/receipts/verify` answer: `ok` when every receipt's hash matches its content and the
 * previous hash, and the numbers follow one another; `checked` receipts read; `firstBreak` the first
 * receipt where it does not hold, and why.
 */
export const receiptChainCheckSchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  firstBreak: z
    .object({
      number: z.number().int(),
      reason: z.string(),
    })
    .optional(),
});
export type ReceiptChainCheck = z.infer<typeof receiptChainCheckSchema>;

/**
 * The articles of the code général des impôts a Cerfa n° 11580 receipt can tick: 200 (gifts of
 * individuals), 238 bis (gifts of companies), 978 (the wealth tax on real estate).
 */
export const receiptArticleSchema = z.enum(['200', '238 bis', '978']);
export type ReceiptArticle = z.infer<typeof receiptArticleSchema>;

const STATEMENT_YEAR_MESSAGE = 'The year must be a whole number between 2000 and 2100.';

/** The calendar year of an annual statement of receipts: a whole number from 2000 to 2100. */
const statementYear = z.coerce
  .number({ message: STATEMENT_YEAR_MESSAGE })
  .int({ message: STATEMENT_YEAR_MESSAGE })
  .min(2000, { message: STATEMENT_YEAR_MESSAGE })
  .max(2100, { message: STATEMENT_YEAR_MESSAGE });

/** `GET /api/receipts/annual-statement` and `…/pdf` query: the year the receipts were issued in. */
export const receiptStatementQuerySchema = z.object({ year: statementYear });
export type ReceiptStatementQuery = z.infer<typeof receiptStatementQuerySchema>;

/** `GET /api/receipts/annual-statement/export` query: the year and the CSV dialect. */
export const receiptStatementExportQuerySchema = z.object({
  year: statementYear,
  dialect: csvDialectSchema,
});
export type ReceiptStatementExportQuery = z.infer<typeof receiptStatementExportQuerySchema>;

/**
 * `GET /api/receipts/annual-statement?year=` answer (Administrators), the organisation's annual
 * statement of the tax receipts it issued (CGI art. 222 bis): the Cerfa receipts issued in `year`
 * (their issue day in the organisation's time zone) and not cancelled, how many (`receiptCount`) and
 * the total of the gifts they state (`totalAmount`, in euros, 2 decimals; a receipt made out in
 * another currency converted at the rate of its issue day); `byType` the same per article of the tax
 * code ticked on the receipts, articles without receipts left out.
 */
export const receiptStatementSchema = z.object({
  year: z.number().int(),
  receiptCount: z.number().int(),
  totalAmount: z.number(),
  currency: z.literal('EUR'),
  byType: z.array(
    z.object({
      type: receiptArticleSchema,
      count: z.number().int(),
      amount: z.number(),
    }),
  ),
});
export type ReceiptStatement = z.infer<typeof receiptStatementSchema>;
