import { z } from 'zod';
import { isIsoDate, MAX_ID } from './common.ts';

// SEPA direct-debit collections (docs/decisions/029): the installments of the recurring gifts due on
// one day, sent to the bank as one ISO 20022 pain.008 file (EPC SEPA Core Direct Debit rulebook,
// EPC016-09). Amounts are euros (numbers with at most two decimals); dates are `YYYY-MM-DD`.

/** `draft` while lines may still change, `exported` once the file is out, `settled` once recorded as donations. */
export const collectionStatusSchema = z.enum(['draft', 'exported', 'settled']);
export type CollectionStatus = z.infer<typeof collectionStatusSchema>;

/**
 * Status of one installment: `pending` until settled, `removed` from a draft, `collected` (its
 * donation recorded), `returned` or `rejected` by the bank (with the ISO reason code).
 */
export const collectionLineStatusSchema = z.enum(['pending', 'removed', 'collected', 'returned', 'rejected']);
export type CollectionLineStatus = z.infer<typeof collectionLineStatusSchema>;

/** Sequence type of a line (rulebook AT-21): first or recurrent collection of a mandate, or one-off. */
export const collectionSequenceTypeSchema = z.enum(['FRST', 'RCUR', 'OOFF']);
export type CollectionSequenceType = z.infer<typeof collectionSequenceTypeSchema>;

/** The two pain.008 versions a file is written in; `pain.008.001.08` by default. */
export const collectionFileVersionSchema = z.enum(['pain.008.001.08', 'pain.008.001.02']);
export type CollectionFileVersion = z.infer<typeof collectionFileVersionSchema>;

const dueDateSchema = z
  .string({ message: 'The due date is required.' })
  .refine(isIsoDate, { message: 'Dates are written YYYY-MM-DD.' });

/**
 * `POST /api/collections`: the due date (`YYYY-MM-DD`) of the collection to build. The server refuses
 * one sooner than today plus the pre-notification days of the settings (409 `collections.too_soon`).
 */
export const createCollectionSchema = z.object({ dueDate: dueDateSchema });
export type CreateCollectionInput = z.infer<typeof createCollectionSchema>;

/** A collection in a list: `count` lines not removed, `total` their euros. */
export const collectionSummarySchema = z.object({
  id: z.number().int(),
  dueDate: z.string(),
  count: z.number().int(),
  total: z.number(),
  status: collectionStatusSchema,
});
export type CollectionSummary = z.infer<typeof collectionSummarySchema>;

export const collectionListSchema = z.array(collectionSummarySchema);

/**
 * One installment of a collection: the debtor's name, the mandate's reference (RUM), the IBAN
 * masked but for its last 4 characters (`•••• 0189`), the amount in euros, the sequence type and
 * the status; `endToEndId`, the line's reference in the file and in the bank's return files;
 * `reasonCode` (ISO 20022 return reason) and `donationId` once known.
 */
export const collectionLineSchema = z.object({
  id: z.number().int(),
  planId: z.number().int(),
  subscriberId: z.number().int(),
  subscriberName: z.string(),
  rum: z.string(),
  iban: z.string(),
  amount: z.number(),
  sequenceType: collectionSequenceTypeSchema,
  endToEndId: z.string(),
  status: collectionLineStatusSchema,
  reasonCode: z.string().optional(),
  donationId: z.number().int().optional(),
});
export type CollectionLine = z.infer<typeof collectionLineSchema>;

/** `GET /api/collections/{id}`: the summary, the file version once exported, and the lines (removed ones too). */
export const collectionDetailSchema = collectionSummarySchema.extend({
  fileVersion: collectionFileVersionSchema.optional(),
  exportedAt: z.string().optional(),
  settledAt: z.string().optional(),
  lines: z.array(collectionLineSchema),
});
export type CollectionDetail = z.infer<typeof collectionDetailSchema>;

/** `GET /api/collections/{id}/file?version=`: the pain.008 version, `pain.008.001.08` when left out. */
export const collectionFileQuerySchema = z.object({
  version: z
    .enum(collectionFileVersionSchema.options, { message: 'Choose pain.008.001.08 or pain.008.001.02.' })
    .default('pain.008.001.08'),
});
export type CollectionFileQuery = z.infer<typeof collectionFileQuerySchema>;

/** `DELETE /api/collections/{id}/lines/{lineId}`. */
export const collectionLineParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(MAX_ID, { message: 'No record has this id.' }),
  lineId: z.coerce.number().int().positive().max(MAX_ID, { message: 'No record has this id.' }),
});

/** The largest bank return file `POST /api/collections/returns` takes: 10 MB. */
export const COLLECTION_RETURNS_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * What a return file did to one transaction it reports:
 * - `applied`: the line is now returned or rejected (its donation cancelled or flagged);
 * - `alreadyApplied`: the line had this result already (the same file twice changes nothing);
 * - `notSent`: the line was never in an exported file (a draft's, or removed);
 * - `unknown`: no line has this EndToEndId (another creditor's or another tool's collection).
 */
export const collectionReturnOutcomeSchema = z.enum(['applied', 'alreadyApplied', 'notSent', 'unknown']);
export type CollectionReturnOutcome = z.infer<typeof collectionReturnOutcomeSchema>;

/**
 * One transaction of a return file: its `endToEndId`, `status` (`rejected` from a pain.002,
 * `returned` from a camt.054), ISO 20022 `reasonCode`, and the `outcome`. For a known line: the
 * collection and line ids, the debtor, the amount in euros; `donation` `cancelled` when its donation
 * was deleted, `receipted` when a tax receipt (`receiptNumber`) covers it and should be cancelled;
 * `mandateSuspended` when this return suspended the mandate (`rum`).
 */
export const collectionReturnLineSchema = z.object({
  endToEndId: z.string(),
  status: z.enum(['returned', 'rejected']),
  reasonCode: z.string(),
  outcome: collectionReturnOutcomeSchema,
  collectionId: z.number().int().optional(),
  lineId: z.number().int().optional(),
  subscriberId: z.number().int().optional(),
  subscriberName: z.string().optional(),
  rum: z.string().optional(),
  amount: z.number().optional(),
  donation: z.enum(['cancelled', 'receipted']).optional(),
  receiptNumber: z.number().int().optional(),
  mandateSuspended: z.boolean().optional(),
});
export type CollectionReturnLine = z.infer<typeof collectionReturnLineSchema>;

/**
 * `POST /api/collections/returns` (multipart, field `file`: a pain.002 or camt.054 file): how many
 * transactions were applied, already applied, not sent or unknown, and each of them in file order.
 */
export const collectionReturnsResultSchema = z.object({
  applied: z.number().int(),
  alreadyApplied: z.number().int(),
  notSent: z.number().int(),
  unknown: z.number().int(),
  lines: z.array(collectionReturnLineSchema),
});
export type CollectionReturnsResult = z.infer<typeof collectionReturnsResultSchema>;

/**
 * What the ISO 20022 external reason codes of SEPA direct-debit R-transactions mean, in the words of
 * the EPC guidance on reason codes for SDD R-transactions (EPC173-14).
 */
export const RETURN_REASON_LABELS: Readonly<Record<string, string>> = {
  AC01: 'Account identifier incorrect',
  AC04: 'Account closed',
  AC06: 'Account blocked',
  AC13: 'Debtor account is a consumer account',
  AG01: 'Direct debit forbidden on this account',
  AG02: 'Operation code incorrect',
  AM04: 'Insufficient funds',
  AM05: 'Duplicate collection',
  BE05: 'Creditor identifier incorrect',
  CNOR: 'Creditor bank not registered',
  DNOR: 'Debtor bank not registered',
  FF01: 'Invalid file format',
  MD01: 'No valid mandate',
  MD02: 'Mandate data missing or incorrect',
  MD06: 'Refund requested by the debtor',
  MD07: 'Debtor deceased',
  MS02: 'Refused by the debtor',
  MS03: 'Reason not specified',
  RC01: 'BIC incorrect',
  RR01: 'Regulatory reason: debtor account or identification missing',
  RR02: 'Regulatory reason: debtor name or address missing',
  RR03: 'Regulatory reason: creditor name or address missing',
  RR04: 'Regulatory reason',
  SL01: 'Specific service offered by the debtor bank',
};

/** `AM04` → "AM04 (Insufficient funds)"; a code without known words is given as it is. */
export function describeReturnReason(code: string): string {
  const label = RETURN_REASON_LABELS[code];
  return label ? `${code} (${label})` : code;
}
