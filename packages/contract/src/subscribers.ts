import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { isIsoDate, MAX_ID, moneySchema, plainString, queryFlagSchema } from './common.ts';

/**
 * Subscribers (part 2 §2.1-2.3, §3 Subscriber, §4, §5, §7 Subscribers).
 * Reference ids: 0 means none. Dates are `YYYY-MM-DD` or null. `amount` is in the subscriber's currency, in units.
 */

/** An optional date: `YYYY-MM-DD`, or empty / null for none (part 2 §5: empty becomes null). */
export const optionalDateSchema = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' });

const text = (max: number) =>
  plainString()
    .trim()
    .max(max, { message: `At most ${max} characters.` })
    .nullish()
    .transform((value) => value ?? '');

const referenceId = z
  .number({ message: 'Choose an item of the list.' })
  .int({ message: 'Choose an item of the list.' })
  .min(0, { message: 'Choose an item of the list.' })
  .max(MAX_ID, { message: 'Choose an item of the list.' })
  .nullish()
  .transform((value) => value ?? 0);

/** IBAN check (mod-97 and country format) with ibantools; spaces and case are ignored. */
export function isValidIban(value: string): boolean {
  const electronic = electronicFormatIBAN(value);
  return Boolean(electronic) && isValidIBAN(electronic ?? '');
}

/** The subscriber form and the save payload (part 2 §3; validation texts of §5). */
export const saveSubscriberInputSchema = z.object({
  id: z
    .union([z.number().int().min(0), z.string().regex(/^\d*$/)])
    .optional()
    .transform((value) => (value === undefined || value === '' ? 0 : Number(value)))
    .refine((value) => value <= MAX_ID, { message: 'No subscriber has this id.' }),
  /** The version read before editing; a save based on an older one answers 409. */
  version: z.number().int().positive().max(MAX_ID).optional(),
  title: text(50),
  firstName: plainString({ message: 'First name.' })
    .trim()
    .min(1, { message: 'First name.' })
    .max(100, { message: 'At most 100 characters.' }),
  lastName: plainString({ message: 'Last name.' })
    .trim()
    .min(1, { message: 'Last name.' })
    .max(100, { message: 'At most 100 characters.' }),
  email: text(254).refine((value) => value === '' || z.email().safeParse(value).success, {
    message: 'Valid email is required',
  }),
  phone: text(50),
  mobile: text(50),
  fax: text(50),
  address1: text(200),
  address2: text(200),
  address3: text(200),
  town: text(100),
  postcode: text(20),
  billingAddress: text(1000),
  notes: text(20_000),
  association: text(200),
  inactive: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  inactiveReason: text(500),
  rum: text(35),
  countryId: referenceId,
  paymentMethodId: referenceId,
  categoryId: referenceId,
  subscriptionTypeId: referenceId,
  currencyId: z
    .number({ message: 'Currency.' })
    .int({ message: 'Currency.' })
    .positive({ message: 'Currency.' })
    .max(MAX_ID, { message: 'Currency.' }),
  recommendedBy: text(200),
  copies: z
    .number({ message: 'Copies must be a whole number.' })
    .int({ message: 'Copies must be a whole number.' })
    .min(0, { message: 'Copies cannot be negative.' })
    .max(100_000, { message: 'Copies is too large.' })
    .nullish()
    .transform((value) => value ?? 0),
  bank: text(200),
  iban: text(50).refine((value) => value === '' || isValidIban(value), {
    message: 'This IBAN is not valid.',
  }),
  amount: moneySchema('The amount must be a number.')
    .nullish()
    .transform((value) => value ?? 0),
  startDate: optionalDateSchema,
  endDate: optionalDateSchema,
  tags: z
    .array(plainString().trim().min(1).max(100))
    .max(100)
    .nullish()
    .transform((value) => value ?? []),
  onMailChimpList: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  newsletterEmail: text(254),
  /**
   * The day the subscriber agreed to receive emails (GDPR art. 7: a consent must be shown), `YYYY-MM-DD`
   * or null; not after today in the organisation's zone (checked by the server's clock).
   */
  emailConsentDate: optionalDateSchema,
  /** How that consent was given, e.g. "Formulaire web", "Bulletin papier", "Import". */
  emailConsentSource: text(200),
  hidden: z.boolean().optional(),
});
export type SaveSubscriberInput = z.input<typeof saveSubscriberInputSchema>;
export type SaveSubscriber = z.output<typeof saveSubscriberInputSchema>;

/** The full subscriber record as the API returns it. */
export const subscriberSchema = z.object({
  id: z.number().int().min(0),
  version: z.number().int().min(0),
  title: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  mobile: z.string(),
  fax: z.string(),
  address1: z.string(),
  address2: z.string(),
  address3: z.string(),
  town: z.string(),
  postcode: z.string(),
  billingAddress: z.string(),
  notes: z.string(),
  association: z.string(),
  inactive: z.boolean(),
  inactiveReason: z.string(),
  rum: z.string(),
  countryId: z.number().int(),
  paymentMethodId: z.number().int(),
  categoryId: z.number().int(),
  subscriptionTypeId: z.number().int(),
  currencyId: z.number().int(),
  recommendedBy: z.string(),
  copies: z.number().int(),
  bank: z.string(),
  iban: z.string(),
  amount: z.number(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  tags: z.array(z.string()),
  onMailChimpList: z.boolean(),
  newsletterEmail: z.string(),
  /** `YYYY-MM-DD` of the email consent (GDPR art. 7), null when none is recorded. */
  emailConsentDate: z.string().nullable(),
  emailConsentSource: z.string(),
  addedBy: z.string(),
  /** ISO 8601 timestamp; null for a record not saved yet. */
  addedOn: z.string().nullable(),
  hidden: z.boolean(),
});
export type Subscriber = z.infer<typeof subscriberSchema>;

/** An optional list choice in a query string: empty for any, else an id (0 for none). */
const optionalQueryId = z.union([z.literal(''), z.coerce.number().int().min(0).max(MAX_ID)]).optional();

/** `GET /api/subscribers/` query (part 2 §7). Empty strings mean "no filter"; dates `YYYY-MM-DD`. */
export const subscriberSearchQuerySchema = z.object({
  firstname: plainString().trim().max(100).optional(),
  name: plainString().trim().max(100).optional(),
  assoc: plainString().trim().max(200).optional(),
  town: plainString().trim().max(100).optional(),
  postcode: plainString().trim().max(20).optional(),
  tag: optionalQueryId,
  country: optionalQueryId,
  category: optionalQueryId,
  pmeth: optionalQueryId,
  copies: optionalQueryId,
  /** '' = no filter, 0 = included and excluded, 1 = included only, 2 = excluded only (part 2 §4). */
  status: z.union([z.literal(''), z.coerce.number().int().min(0).max(2)]).optional(),
  addedafter: z
    .string()
    .optional()
    .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' }),
  addedbefore: z
    .string()
    .optional()
    .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' }),
  /** 1-based position of the first row. */
  listfrom: z.coerce.number().int().min(1).default(1),
  /** Page size, at most 500. */
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type SubscriberSearchQuery = z.infer<typeof subscriberSearchQuerySchema>;

/** One search result row (part 2 §3 Subscriber search row). */
export const subscriberSearchRowSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  category: z.string(),
  street: z.string(),
  postCode: z.string(),
});
export type SubscriberSearchRow = z.infer<typeof subscriberSearchRowSchema>;

export const subscriberSearchResultSchema = z.object({
  count: z.number().int().min(0),
  /** False when `count` is an estimate: above 10,000 matches, when an exact count would take too long. */
  countIsExact: z.boolean(),
  models: z.array(subscriberSearchRowSchema),
});
export type SubscriberSearchResult = z.infer<typeof subscriberSearchResultSchema>;

/** `GET /api/subscribers/inactive` query: 1-based `listfrom`, `listlength` up to 500 (default 50). */
export const inactiveSubscribersQuerySchema = z.object({
  listfrom: z.coerce.number().int().min(1).max(MAX_ID).default(1),
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type InactiveSubscribersQuery = z.infer<typeof inactiveSubscribersQuerySchema>;

/** A subscriber of the retention report: `lastActivity` is the day (`YYYY-MM-DD`) of their latest activity. */
export const inactiveSubscriberSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  lastActivity: z.string(),
  email: z.string(),
});
export type InactiveSubscriber = z.infer<typeof inactiveSubscriberSchema>;

/**
 * `GET /api/subscribers/inactive` answer (GDPR art. 5(1)(e), storage limitation): the visible
 * subscribers whose last activity (their record's last change, last donation or last sale) is older
 * than `years` years before today, oldest first; `count` of them in all, `models` the page asked for.
 */
export const inactiveSubscribersResultSchema = z.object({
  count: z.number().int().min(0),
  years: z.number().int().min(1),
  models: z.array(inactiveSubscriberSchema),
});
export type InactiveSubscribersResult = z.infer<typeof inactiveSubscribersResultSchema>;

/** One history entry (part 2 §3): `date` is an ISO 8601 timestamp, `user` the staff member's name. */
export const historyEntrySchema = z.object({
  description: z.string(),
  user: z.string(),
  date: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** "true"/"1" or "false"/"0" in a query string (also a real boolean); missing or empty means false. */
/**
 * `GET /api/subscribers/export` query (part 2 §7): the search's filters (`listfrom` and `listlength`
 * are ignored: the export holds every match) plus `emailsOnly` (names and email addresses only).
 */
export const subscriberExportQuerySchema = subscriberSearchQuerySchema
  .omit({ listfrom: true, listlength: true })
  .extend({ emailsOnly: queryFlagSchema });
export type SubscriberExportQuery = z.infer<typeof subscriberExportQuerySchema>;

/** Shortest subject of a bulk email (part 2 §5, §9). */
export const EMAIL_SUBJECT_MIN_LENGTH = 4;

/** Placeholders replaced in the subject and text of emails to subscribers, e.g. `Bonjour {firstName},`. */
export const SUBSCRIBER_EMAIL_PLACEHOLDERS = [
  '{title}',
  '{firstName}',
  '{lastName}',
  '{organisationName}',
] as const;

const filterText = (max: number) =>
  plainString()
    .trim()
    .max(max, { message: `At most ${max} characters.` })
    .nullish()
    .transform((value) => value ?? '');

/** A list choice of the email form: an id, a numeric string, or null / '' / 0 for "any". */
const filterId = z
  .union([
    z.number().int().min(0, { message: 'Choose an item of the list.' }),
    z.string().trim().regex(/^\d*$/, { message: 'Choose an item of the list.' }),
    z.null(),
  ])
  .optional()
  .transform((value) => (value === undefined || value === null || value === '' ? '' : Number(value)))
  .refine((value) => value === '' || value <= MAX_ID, { message: 'Choose an item of the list.' });

const filterDate = z
  .string()
  .nullish()
  .transform((value) => value ?? '')
  .refine((value) => value === '' || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' });

/**
 * `POST /api/subscribers/email/list` body (part 2 §3 "Subscriber email-list payload", §5): the message
 * and the search's filters under the form's names. Null or empty filters mean "no filter".
 * `copies` (or, when it is not set, a numeric `receivingCopies`) means "receiving that many or more".
 * `{title}`, `{firstName}`, `{lastName}` (and `{organisationName}`) in subject and message are replaced
 * per subscriber; each message ends with an unsubscribe link.
 */
export const subscriberEmailListInputSchema = z.object({
  subject: plainString({ message: 'Subject is required' })
    .trim()
    .min(EMAIL_SUBJECT_MIN_LENGTH, { message: 'Subject is required' })
    .max(200, { message: 'At most 200 characters.' }),
  message: plainString({ message: 'Message is required' })
    .trim()
    .min(1, { message: 'Message is required' })
    .max(20_000, { message: 'At most 20000 characters.' }),
  name: filterText(100),
  firstName: filterText(100),
  town: filterText(100),
  postcode: filterText(20),
  assoc: filterText(200),
  category: filterId,
  country: filterId,
  pmeth: filterId,
  tag: filterId,
  copies: filterId,
  receivingCopies: z.union([filterId, z.boolean().transform(() => '' as const)]),
  /** '' or null = no filter, 0 = included and excluded, 1 = included only, 2 = excluded only (part 2 §4). */
  status: z
    .union([
      z.number().int().min(0).max(2, { message: 'Use 0, 1 or 2.' }),
      z.enum(['', '0', '1', '2'], { message: 'Use 0, 1 or 2.' }),
      z.null(),
    ])
    .optional()
    .transform((value) => (value === undefined || value === null || value === '' ? '' : Number(value))),
  addedAfter: filterDate,
  addedBefore: filterDate,
});
export type SubscriberEmailListInput = z.input<typeof subscriberEmailListInputSchema>;
export type SubscriberEmailList = z.output<typeof subscriberEmailListInputSchema>;

/**
 * The subject and message of a bulk email being written, as the preview takes them: empty allowed
 * (the dialog previews while the user types), the same upper limits as the email itself.
 */
export const bulkEmailDraftShape = {
  subject: plainString().max(200, { message: 'At most 200 characters.' }),
  message: plainString().max(20_000, { message: 'At most 20000 characters.' }),
};

/**
 * `POST /api/subscribers/email/list/preview` body: the email-list payload with the subject and message
 * as written so far (may be empty); answers who would receive it and the first one's message.
 */
export const subscriberEmailPreviewInputSchema = subscriberEmailListInputSchema.extend(bulkEmailDraftShape);
export type SubscriberEmailPreviewInput = z.input<typeof subscriberEmailPreviewInputSchema>;
export type SubscriberEmailPreview = z.output<typeof subscriberEmailPreviewInputSchema>;

/**
 * Answer of the email calls (`GET /api/subscribers/{id}/brochure/email`, `POST /api/subscribers/email/list`):
 * `202 {queued}`, how many messages were put in the outbox (they are sent in the background).
 */
export const emailQueuedResultSchema = z.object({ queued: z.number().int().min(0) });
export type EmailQueuedResult = z.infer<typeof emailQueuedResultSchema>;
