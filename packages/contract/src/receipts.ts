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
