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
 * the status; `reasonCode` (ISO 20022 return reason) and `donationId` once known.
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
