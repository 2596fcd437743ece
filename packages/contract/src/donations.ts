import { z } from 'zod';
import {
  hasAtMostTwoDecimals,
  isIsoDate,
  MAX_ID,
  MIN_INTEGER,
  plainString,
  queryFlagSchema,
} from './common.ts';

/**
 * Donations (part 2 §2.4, §3 Donation list item / search filter / form, §5 New donation, §7 Donations).
 * Amounts are in the subscriber's currency, in units (euros or francs), at most 2 decimals.
 */

/** The earliest donation date accepted. */
export const FIRST_DONATION_DATE = '1900-01-01';

/** `POST /api/donations` body; `donationDate` is `YYYY-MM-DD`, not in the future (checked by the server's clock). */
export const createDonationInputSchema = z.object({
  subid: z.coerce
    .number({ message: 'Choose the subscriber.' })
    .int({ message: 'Choose the subscriber.' })
    .positive({ message: 'Choose the subscriber.' })
    .max(MAX_ID, { message: 'Choose the subscriber.' }),
  amount: z
    .number({ message: 'Amount is required' })
    // At least a cent: 1e-9 has "at most 2 decimals" once rounded, to 0.00.
    .min(0.01, { message: 'The amount must be more than 0.' })
    .max(9_999_999_999.99, { message: 'The amount is too large.' })
    .refine(hasAtMostTwoDecimals, { message: 'The amount can have at most 2 decimals.' }),
  donationDate: z
    .string({ message: 'The donation date is required.' })
    .refine(isIsoDate, { message: 'The donation date is required.' })
    .refine((value) => value >= FIRST_DONATION_DATE, { message: 'The donation date cannot be before 1900.' }),
  notes: plainString()
    .trim()
    .max(2000, { message: 'At most 2000 characters.' })
    .nullish()
    .transform((value) => value ?? ''),
});
export type CreateDonationInput = z.input<typeof createDonationInputSchema>;
export type CreateDonation = z.output<typeof createDonationInputSchema>;

/** One donation in a list (part 2 §3). `dateAdded` is the donation date `YYYY-MM-DD`. */
export const donationListItemSchema = z.object({
  id: z.number().int().positive(),
  hasEmail: z.boolean(),
  subscriberId: z.number().int().positive(),
  subscriberName: z.string(),
  amount: z.number(),
  currencyName: z.string(),
  currencySymbol: z.string(),
  dateAdded: z.string(),
  notes: z.string(),
  postCode: z.string(),
  /** The number of the tax receipt that covers the donation, once one was issued. */
  receiptNumber: z.number().int().nullable(),
  /**
   * The sale whose "Dons" this gift is (part 2 §2.6 New sale), and that sale's reference (its n°);
   * both absent for a gift recorded on its own. Such a donation is deleted or refunded with its sale.
   */
  saleId: z.number().int().positive().optional(),
  saleRef: z.number().int().positive().optional(),
});
export type DonationListItem = z.infer<typeof donationListItemSchema>;

const optionalId = z.union([z.literal(''), z.coerce.number().int().min(MIN_INTEGER).max(MAX_ID)]).optional();
const optionalAmount = z.union([z.literal(''), z.coerce.number().min(0)]).optional();
const optionalDate = z
  .string()
  .optional()
  .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' });

/**
 * `GET /api/donations` query (part 2 §7). `id` = one subscriber (empty, 0 or -1 = any); `isdebit`
 * 0 = both, 1 = direct-debit payers only, 2 = the others; `amountMin`/`amountMax` are exclusive
 * ("greater than" / "less than"); `addedafter` includes its day, `addedbefore` excludes it.
 */
export const donationSearchQuerySchema = z.object({
  id: optionalId,
  name: plainString().trim().max(100).optional(),
  zip: plainString().trim().max(20).optional(),
  addedafter: optionalDate,
  addedbefore: optionalDate,
  amountMin: optionalAmount,
  amountMax: optionalAmount,
  isdebit: z.union([z.literal(''), z.coerce.number().int().min(0).max(2)]).optional(),
  country: optionalId,
  category: optionalId,
  listfrom: z.coerce.number().int().min(1).default(1),
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type DonationSearchQuery = z.infer<typeof donationSearchQuerySchema>;

export const donationSearchResultSchema = z.object({
  count: z.number().int().min(0),
  /** False when `count` is an estimate: above 10,000 matches, when an exact count would take too long. */
  countIsExact: z.boolean(),
  models: z.array(donationListItemSchema),
});
export type DonationSearchResult = z.infer<typeof donationSearchResultSchema>;

/** `GET /api/donations/export` query: the search's filters plus `isdetailed` (one row per donation, else per donor). */
export const donationExportQuerySchema = donationSearchQuerySchema
  .omit({ listfrom: true, listlength: true })
  .extend({ isdetailed: queryFlagSchema });
export type DonationExportQuery = z.infer<typeof donationExportQuerySchema>;

/**
 * `GET /api/donations/annualemail/{subscriberId}/{year}` answer (part 2 §7 Donations): `queued` emails
 * (1), receipts newly `issued`, receipts `alreadyIssued` before (sent again), and the address used.
 */
export const annualReceiptEmailedSchema = z.object({
  queued: z.number().int(),
  issued: z.number().int().min(0),
  alreadyIssued: z.number().int().min(0),
  emailedTo: z.string(),
});
export type AnnualReceiptEmailed = z.infer<typeof annualReceiptEmailedSchema>;
