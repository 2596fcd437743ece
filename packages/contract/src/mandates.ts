import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { isIsoDate, plainString } from './common.ts';

/**
 * SEPA direct-debit mandates (not in the spec; docs/decisions/027), after the EPC's SEPA Core Direct
 * Debit rulebook: a subscriber signs one or more mandates, each with its unique mandate reference
 * (RUM, "Référence Unique de Mandat", at most 35 characters of the SEPA character set) and the IBAN
 * to debit. Dates are `YYYY-MM-DD`. A mandate not used for 36 months expires.
 */

/** Longest mandate reference the rulebook allows (attribute AT-01, `MndtId`: Max35Text). */
export const MANDATE_REFERENCE_MAX_LENGTH = 35;

/** The SEPA character set of a mandate reference: `A-Z a-z 0-9 / - ? : ( ) . , ' +` and space. */
const MANDATE_REFERENCE_PATTERN = /^[A-Za-z0-9/\-?:().,'+ ]+$/;

/** Months without a collection after which a mandate expires (rulebook: 36 months). */
export const MANDATE_EXPIRY_MONTHS = 36;

/**
 * True for a valid SEPA mandate reference: 1 to 35 characters of the SEPA set, neither starting nor
 * ending with `/`, without `//` (the rule of the identifiers of the EPC's XML messages).
 */
export function isValidMandateReference(value: string): boolean {
  return (
    value.length >= 1 &&
    value.length <= MANDATE_REFERENCE_MAX_LENGTH &&
    MANDATE_REFERENCE_PATTERN.test(value) &&
    !value.startsWith('/') &&
    !value.endsWith('/') &&
    !value.includes('//')
  );
}

/** `recurring`: several collections (sequence FRST, RCUR, FNAL); `oneOff`: one collection (OOFF). */
export const mandateTypeSchema = z.enum(['recurring', 'oneOff'], {
  message: 'The type is recurring or oneOff.',
});
export type MandateType = z.infer<typeof mandateTypeSchema>;

/**
 * `active`: may be collected; `revoked`: the debtor or the organisation ended it; `expired`: not used
 * for 36 months (the `mandates.expire` job); `suspended`: the bank returned its collections (two
 * R-transactions, or one whose reason code says the mandate can no longer be used), so it is no longer
 * collected.
 */
export const mandateStatusSchema = z.enum(['active', 'revoked', 'expired', 'suspended']);
export type MandateStatus = z.infer<typeof mandateStatusSchema>;

const RUM_MESSAGE =
  "The RUM is 1 to 35 characters among A-Z a-z 0-9 / - ? : ( ) . , ' + and space, without // nor / at either end.";

/** The mandate reference: trimmed, then checked by {@link isValidMandateReference}. */
const rumSchema = plainString({ message: 'The RUM is required.' })
  .trim()
  .min(1, { message: 'The RUM is required.', abort: true })
  .refine(isValidMandateReference, { message: RUM_MESSAGE });

/** The IBAN, checked with ibantools (country format and mod-97), sent back without spaces, upper case. */
const ibanSchema = plainString({ message: 'The IBAN is required.' })
  .trim()
  .min(1, { message: 'The IBAN is required.' })
  .max(50, { message: 'This IBAN is not valid.' })
  .transform((value) => electronicFormatIBAN(value) ?? '')
  .refine((value) => value !== '' && isValidIBAN(value), { message: 'This IBAN is not valid.' });

/** The BIC as sent: text (8 or 11 characters) or null; empty or null means none. */
const bicInputSchema = z.union([
  plainString().trim().max(11, { message: 'This BIC is not valid.' }),
  z.null(),
]);

const BIC_MESSAGE = 'This BIC is not valid.';

/** The BIC (checked with ibantools), upper case; absent, empty or null for none (null). */
const bicSchema = bicInputSchema
  .optional()
  .transform((value) => (value ? value.toUpperCase() : null))
  .refine((value) => value === null || isValidBIC(value), { message: BIC_MESSAGE });

/** A change of BIC: absent keeps it (undefined), empty or null removes it (null), else the new one. */
const bicChangeSchema = bicInputSchema
  .optional()
  .transform((value) => (value === undefined ? undefined : value ? value.toUpperCase() : null))
  .refine((value) => !value || isValidBIC(value), { message: BIC_MESSAGE });

/**
 * The day of the signature, `YYYY-MM-DD`. Not after today in the organisation's time zone: the server
 * checks that with its clock (400 `mandates.future_signature` naming `signedOn`), the form with the
 * browser's.
 */
const signedOnSchema = z
  .string({ message: 'The date of signature is required.' })
  .refine(isIsoDate, { message: 'Dates are written YYYY-MM-DD.' });

/**
 * `POST /api/subscribers/{id}/mandates` body: `rum` (1-35 SEPA characters, unique), `iban` (spaces
 * and case ignored), `bic` (optional), `signedOn` (`YYYY-MM-DD`, not in the future) and `type`.
 * Every refusal is a 400 naming the field.
 */
export const mandateSchema = z.object({
  rum: rumSchema,
  iban: ibanSchema,
  bic: bicSchema,
  signedOn: signedOnSchema,
  type: mandateTypeSchema,
});
export type MandateInput = z.input<typeof mandateSchema>;
export type MandateValues = z.output<typeof mandateSchema>;

/**
 * `PATCH /api/mandates/{id}` body: any of the fields of {@link mandateSchema}; those left out keep
 * their value (`bic: null` or `''` removes the BIC).
 */
export const mandateChangesSchema = z.object({
  rum: rumSchema.optional(),
  iban: ibanSchema.optional(),
  bic: bicChangeSchema,
  signedOn: signedOnSchema.optional(),
  type: mandateTypeSchema.optional(),
});
export type MandateChanges = z.output<typeof mandateChangesSchema>;

/** `POST /api/mandates/{id}/revoke` body: why the mandate ends (1-500 characters). */
export const revokeMandateSchema = z.object({
  reason: plainString({ message: 'The reason is required.' })
    .trim()
    .min(1, { message: 'The reason is required.' })
    .max(500, { message: 'At most 500 characters.' }),
});
export type RevokeMandateInput = z.input<typeof revokeMandateSchema>;

/**
 * A mandate as the API returns it. `iban` is without spaces, upper case (a mandate carried over from
 * the legacy record may hold one that fails the check digits, or `''`); `lastCollectedOn` is the day
 * of its last collection, absent while never used; `revokedOn` and `revokedReason` are there once
 * revoked. `amendment` is there when the RUM or the IBAN of a used mandate changed since its last
 * collection: the next collection sends them as the rulebook's amendment (`AmdmntInd` true, with
 * `OrgnlMndtId` = `originalRum` and `OrgnlDbtrAcct` = `originalIban`), then clears it.
 */
export const mandateReadSchema = z.object({
  id: z.number().int(),
  subscriberId: z.number().int(),
  rum: z.string(),
  iban: z.string(),
  bic: z.string().optional(),
  signedOn: z.string(),
  type: mandateTypeSchema,
  status: mandateStatusSchema,
  lastCollectedOn: z.string().optional(),
  revokedOn: z.string().optional(),
  revokedReason: z.string().optional(),
  suspendedOn: z.string().optional(),
  suspendedReason: z.string().optional(),
  amendment: z
    .object({
      originalRum: z.string().optional(),
      originalIban: z.string().optional(),
      amendedOn: z.string(),
    })
    .optional(),
});
export type Mandate = z.infer<typeof mandateReadSchema>;

/** `GET /api/subscribers/{id}/mandates`: the subscriber's mandates, most recently signed first. */
export const mandateListSchema = z.array(mandateReadSchema);
