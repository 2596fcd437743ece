import { z } from 'zod';
import { MAX_ID, plainString } from './common.ts';

/**
 * Duplicates and merge (not in the spec; keeping the register clean after moving in): likely duplicates
 * of a subscriber being written, the pairs a scan of the whole register finds, and the merge of two
 * subscribers into one, which can be undone for {@link MERGE_UNDO_DAYS} days.
 */

/** Why two subscribers look like the same person. */
export const duplicateReasonSchema = z.enum(['email', 'iban', 'phone', 'name+postcode', 'name+town']);
export type DuplicateReason = z.infer<typeof duplicateReasonSchema>;

/** Days during which a merge can be undone. */
export const MERGE_UNDO_DAYS = 30;

/**
 * `POST /api/subscribers/duplicates/check` body: what the subscriber form holds so far. Answers the
 * existing subscribers (at most 10, best first) that look like the same person; `excludeId` is the
 * record being edited.
 */
export const duplicateCheckSchema = z.object({
  excludeId: z.number().int().min(0).max(MAX_ID).default(0),
  firstName: plainString().max(100).default(''),
  lastName: plainString().max(100).default(''),
  email: plainString().max(254).default(''),
  phone: plainString().max(50).default(''),
  mobile: plainString().max(50).default(''),
  iban: plainString().max(50).default(''),
  postcode: plainString().max(20).default(''),
  town: plainString().max(100).default(''),
});
export type DuplicateCheck = z.input<typeof duplicateCheckSchema>;

/** One likely duplicate: the subscriber, how they are named and placed, why they match. */
export const duplicateMatchSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  postcode: z.string(),
  town: z.string(),
  email: z.string(),
  reasons: z.array(duplicateReasonSchema),
});
export type DuplicateMatch = z.infer<typeof duplicateMatchSchema>;
export const duplicateMatchListSchema = z.array(duplicateMatchSchema);

/** `GET /api/subscribers/duplicates` query. */
export const duplicatePairsQuerySchema = z.object({
  listfrom: z.coerce.number().int().min(1).max(MAX_ID).default(1),
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type DuplicatePairsQuery = z.infer<typeof duplicatePairsQuerySchema>;

/**
 * A pair of likely duplicates found by the last scan: `aId` < `bId`, `score` from 0 to 1 (more reasons,
 * higher), with the two subscribers' names for the list.
 */
export const duplicatePairSchema = z.object({
  aId: z.number().int(),
  bId: z.number().int(),
  aName: z.string(),
  bName: z.string(),
  score: z.number(),
  reasons: z.array(duplicateReasonSchema),
});
export type DuplicatePair = z.infer<typeof duplicatePairSchema>;

/**
 * `GET /api/subscribers/duplicates`: the pairs of the last scan that are still two visible subscribers,
 * best first; `scannedAt` (ISO 8601) is when that scan ended (null before the first), `scanning` whether
 * one is under way (`POST /api/subscribers/duplicates/scan` starts one).
 */
export const duplicatePairsSchema = z.object({
  count: z.number().int(),
  models: z.array(duplicatePairSchema),
  scannedAt: z.string().nullable(),
  scanning: z.boolean(),
});
export type DuplicatePairs = z.infer<typeof duplicatePairsSchema>;

/** A field of the subscriber record a merge can take from either side. */
export const MERGEABLE_FIELDS = [
  'title',
  'firstName',
  'lastName',
  'email',
  'phone',
  'mobile',
  'fax',
  'address1',
  'address2',
  'address3',
  'town',
  'postcode',
  'billingAddress',
  'notes',
  'association',
  'inactive',
  'inactiveReason',
  'rum',
  'countryId',
  'paymentMethodId',
  'categoryId',
  'subscriptionTypeId',
  'currencyId',
  'recommendedBy',
  'copies',
  'bank',
  'iban',
  'amount',
  'startDate',
  'endDate',
  'onMailChimpList',
  'newsletterEmail',
  'emailConsentDate',
  'emailConsentSource',
] as const;
export type MergeableField = (typeof MERGEABLE_FIELDS)[number];

/**
 * `POST /api/subscribers/merge` body: `keepId` stays, `mergeId` is merged into it and hidden. `fields`
 * says, per field, whether the kept record keeps its value (`keep`, the default) or takes the merged
 * one's (`merge`). Donations, sales, receipts, tags and history move to the kept subscriber.
 */
export const mergeSubscribersSchema = z.object({
  keepId: z.number().int().positive().max(MAX_ID),
  /** Another subscriber than `keepId` (the server answers 400 naming `mergeId` otherwise). */
  mergeId: z.number().int().positive().max(MAX_ID),
  fields: z.partialRecord(z.enum(MERGEABLE_FIELDS), z.enum(['keep', 'merge'])).default({}),
});

/** The message of a merge of a subscriber with itself. */
export const MERGE_SAME_SUBSCRIBER_MESSAGE = 'Choose two different subscribers.';
export type MergeSubscribers = z.input<typeof mergeSubscribersSchema>;

/**
 * A merge as `POST /api/subscribers/merge` and its undo answer it: what moved, when (ISO 8601), by whom,
 * until when it can be undone, and when it was undone (null while it holds).
 */
export const subscriberMergeSchema = z.object({
  id: z.number().int(),
  keepId: z.number().int(),
  mergeId: z.number().int(),
  moved: z.object({
    donations: z.number().int(),
    sales: z.number().int(),
    receipts: z.number().int(),
    history: z.number().int(),
    tags: z.number().int(),
  }),
  mergedAt: z.string(),
  mergedBy: z.string(),
  undoUntil: z.string(),
  undoneAt: z.string().nullable(),
});
export type SubscriberMerge = z.infer<typeof subscriberMergeSchema>;
