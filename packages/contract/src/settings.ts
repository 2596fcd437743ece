import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { plainString } from './common.ts';
import { DEFAULT_EMAIL_TEMPLATES, emailTemplateSchema } from './email-templates.ts';
import { countryCodeSchema } from './iso-codes.ts';
import { DOCUMENT_RETENTION_YEARS, INACTIVITY_REPORT_YEARS } from './personal-data.ts';

/**
 * Organisation settings used on receipts, invoices, mandate letters and emails (not in the spec).
 * The logo and the signature image travel as data URLs (`data:image/png;base64,...`), PNG or JPEG, at
 * most 1 MB decoded and 2,000 × 2,000 pixels (read from the image's header, so a tiny file declaring a
 * huge image is refused before anything decodes it; see docs/security.md).
 */

/** Largest logo file, in bytes (decoded from its data URL). */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** Largest logo width and height, in pixels. */
export const LOGO_MAX_SIDE = 2000;

/** Why a logo is refused, the same words on the server and in the form. */
export const LOGO_TYPE_MESSAGE = 'The logo must be a PNG or JPEG image.';
export const LOGO_SIZE_MESSAGE = 'The logo must be at most 1 MB.';
export const LOGO_PIXELS_MESSAGE = 'The logo must be at most 2000 × 2000 pixels.';
export const LOGO_DAMAGED_MESSAGE = 'The logo image is damaged: save it again as PNG or JPEG.';

/** Why a signature image is refused (same limits as the logo), the same words on the server and in the form. */
export const SIGNATURE_IMAGE_TYPE_MESSAGE = 'The signature image must be a PNG or JPEG image.';
export const SIGNATURE_IMAGE_SIZE_MESSAGE = 'The signature image must be at most 1 MB.';
export const SIGNATURE_IMAGE_PIXELS_MESSAGE = 'The signature image must be at most 2000 × 2000 pixels.';
export const SIGNATURE_IMAGE_DAMAGED_MESSAGE =
  'The signature image is damaged: save it again as PNG or JPEG.';

/** The four reasons an image setting is refused, in the words of its field. */
export type ImageMessages = { type: string; size: string; pixels: string; damaged: string };
export const LOGO_MESSAGES: ImageMessages = {
  type: LOGO_TYPE_MESSAGE,
  size: LOGO_SIZE_MESSAGE,
  pixels: LOGO_PIXELS_MESSAGE,
  damaged: LOGO_DAMAGED_MESSAGE,
};
export const SIGNATURE_IMAGE_MESSAGES: ImageMessages = {
  type: SIGNATURE_IMAGE_TYPE_MESSAGE,
  size: SIGNATURE_IMAGE_SIZE_MESSAGE,
  pixels: SIGNATURE_IMAGE_PIXELS_MESSAGE,
  damaged: SIGNATURE_IMAGE_DAMAGED_MESSAGE,
};

/**
 * The tax receipt of a donor who lives neither in France nor in Switzerland: `cerfa`, the French
 * "reçu au titre des dons" (Cerfa 11580*05), or `attestation`, the Swiss "attestation de dons". Donors
 * in France always get the Cerfa, donors in Switzerland the attestation (docs/decisions/022).
 */
export const RECEIPT_KINDS = ['cerfa', 'attestation'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];
export const DEFAULT_RECEIPT_FOR_OTHER_COUNTRIES: ReceiptKind = 'cerfa';

/**
 * The boxes of the "Bénéficiaire des versements" section of Cerfa 11580*05 (CGI art. 200-1 a to g and
 * 238 bis), one of which the organisation ticks on its receipts; the key is stored, the label printed.
 * `public-utility` goes with the decree of its recognition and `other` with what the organisation is,
 * in `organisationTypeDetail`.
 */
export const ORGANISATION_TYPES = {
  'public-utility': 'Association ou fondation reconnue d’utilité publique par décret',
  'university-foundation': 'Fondation universitaire ou fondation partenariale',
  'corporate-foundation': 'Fondation d’entreprise',
  'general-interest': 'Œuvre ou organisme d’intérêt général',
  museum: 'Musée de France',
  'higher-education':
    'Établissement d’enseignement supérieur ou d’enseignement artistique public ou privé, d’intérêt général, à but non lucratif',
  'business-creation':
    'Organisme ayant pour objectif exclusif de participer financièrement à la création d’entreprises',
  'alsace-moselle-worship':
    'Association cultuelle ou de bienfaisance et établissement public des cultes reconnus d’Alsace-Moselle',
  festival: 'Organisme ayant pour activité principale l’organisation de festivals',
  'aid-to-people-in-difficulty':
    'Association fournissant gratuitement une aide alimentaire ou des soins médicaux à des personnes en difficulté ou favorisant leur logement',
  'heritage-foundation':
    'Fondation du patrimoine ou fondation ou association qui affecte irrévocablement les versements reçus à la Fondation du patrimoine',
  research: 'Établissement de recherche public ou privé, d’intérêt général, à but non lucratif',
  'work-integration': 'Entreprise d’insertion ou entreprise de travail temporaire d’insertion',
  other: 'Autre organisme',
} as const;
export type OrganisationType = keyof typeof ORGANISATION_TYPES;
export const ORGANISATION_TYPE_KEYS = Object.keys(ORGANISATION_TYPES) as [
  OrganisationType,
  ...OrganisationType[],
];
export const DEFAULT_ORGANISATION_TYPE: OrganisationType = 'general-interest';

/**
 * Days before a collection's due date that each debtor is told its amount and date (the SEPA
 * pre-notification; EPC SEPA Core Direct Debit rulebook: 14 calendar days unless agreed otherwise).
 */
export const SEPA_PRE_NOTIFICATION_DAYS = { min: 2, max: 60, default: 14 } as const;

/**
 * Longest parts of the organisation's structured address, in characters: the limits of a structured
 * address (type "S") in the Swiss QR-bill, SIX "Swiss Implementation Guidelines for the QR-bill" v2.3,
 * data elements of the creditor (Cdtr: StrtNmOrAdrLine1, BldgNbOrAdrLine2, PstCd, TwnNm): street 70,
 * building number 16, postal code 16, town 35; the country (Ctry) is ISO 3166-1 alpha-2.
 */
export const ADDRESS_MAX_LENGTHS = { street: 70, buildingNumber: 16, postcode: 16, town: 35 } as const;

const text = (max: number) =>
  plainString()
    .trim()
    .max(max, { message: `At most ${max} characters.` });

/**
 * An image as a data URL, PNG or JPEG, at most {@link LOGO_MAX_BYTES} decoded (its length is checked
 * here, its bytes and header by the server), or null for none.
 */
const imageDataUrl = (messages: ImageMessages) =>
  z
    .string()
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 100, { message: messages.size })
    .regex(/^(data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*)?$/, { message: messages.type })
    .nullable();

/** Bounds and default of the days between two payment reminders of an invoice. */
export const REMINDER_INTERVAL_DAYS = { min: 1, max: 90, default: 14 } as const;

/** The currencies an invoice can be paid in through the organisation's accounts. */
export const BANK_ACCOUNT_CURRENCIES = ['CHF', 'EUR'] as const;
export type BankAccountCurrency = (typeof BANK_ACCOUNT_CURRENCIES)[number];

/**
 * True for a Swiss or Liechtenstein QR-IBAN: a valid IBAN whose institution id (characters 5 to 9)
 * is 30000 to 31999 (SIX QR-bill implementation guidelines v2.3, 4.2.2). Spaces and case ignored.
 */
export function isQrIban(iban: string): boolean {
  const compact = electronicFormatIBAN(iban) ?? '';
  if (!/^(CH|LI)/.test(compact) || !isValidIBAN(compact)) return false;
  const institution = Number(compact.slice(4, 9));
  return institution >= 30000 && institution <= 31999;
}

/** One account invoices are paid to: its currency and IBAN or QR-IBAN (checked with ibantools). */
export const bankAccountSchema = z.object({
  currency: z.enum(BANK_ACCOUNT_CURRENCIES, { message: 'Choose CHF or EUR.' }),
  iban: z
    .string({ message: 'The IBAN is required.' })
    .trim()
    .min(1, { message: 'The IBAN is required.' })
    .max(50, { message: 'This IBAN is not valid.' })
    .refine((value) => isValidIBAN(electronicFormatIBAN(value) ?? ''), {
      message: 'This IBAN is not valid.',
    }),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

export const settingsSchema = z.object({
  organisationName: text(200),
  address: text(1000),
  emailSenderName: text(200),
  emailSenderAddress: z.union([z.literal(''), z.email({ message: 'Valid email is required' })]),
  sirenOrRna: text(30),
  sepaCreditorId: text(35),
  signatoryName: text(200),
  signatoryTitle: text(200),
  organisationPurpose: text(2000),
  receiptStatement: text(4000),
  invoiceFooter: text(4000),
  paymentTermsText: text(2000),
  /**
   * The email templates (see ./email-templates.ts): empty means the French default; each allows only
   * its placeholders, e.g. `{firstName}` (an unknown one is refused naming the field and the placeholder).
   */
  receiptEmailSubject: emailTemplateSchema('receiptEmailSubject', 200).optional(),
  receiptEmailText: emailTemplateSchema('receiptEmailText', 10_000).optional(),
  annualReceiptEmailSubject: emailTemplateSchema('annualReceiptEmailSubject', 200).optional(),
  annualReceiptEmailText: emailTemplateSchema('annualReceiptEmailText', 10_000).optional(),
  brochureEmailSubject: emailTemplateSchema('brochureEmailSubject', 200).optional(),
  brochureEmailText: emailTemplateSchema('brochureEmailText', 10_000).optional(),
  bulkEmailFooter: emailTemplateSchema('bulkEmailFooter', 2000).optional(),
  reminderEmailSubject: emailTemplateSchema('reminderEmailSubject', 200).optional(),
  reminderEmailText: emailTemplateSchema('reminderEmailText', 10_000).optional(),
  /**
   * The fewest calendar days between two payment reminders of one invoice (1 to 90, 14 by default;
   * {@link REMINDER_INTERVAL_DAYS}). Left out, it keeps its value.
   */
  reminderIntervalDays: z
    .number({ message: 'Give a number of days.' })
    .int({ message: 'Give a whole number of days.' })
    .min(REMINDER_INTERVAL_DAYS.min, { message: `At least ${REMINDER_INTERVAL_DAYS.min} day.` })
    .max(REMINDER_INTERVAL_DAYS.max, { message: `At most ${REMINDER_INTERVAL_DAYS.max} days.` })
    .optional(),
  /**
   * How many years issued receipts and invoices are kept as issued (1 to 50, 10 by default): past
   * that, the personal data they carry for an anonymised subscriber is removed (docs/decisions/019).
   * Left out, it keeps its value.
   */
  documentRetentionYears: z
    .number({ message: 'Give a number of years.' })
    .int({ message: 'Give a whole number of years.' })
    .min(DOCUMENT_RETENTION_YEARS.min, { message: `At least ${DOCUMENT_RETENTION_YEARS.min} year.` })
    .max(DOCUMENT_RETENTION_YEARS.max, { message: `At most ${DOCUMENT_RETENTION_YEARS.max} years.` })
    .optional(),
  /**
   * After how many years without activity a subscriber is listed by the retention report (1 to 50, 3 by
   * default; GDPR art. 5(1)(e)). Left out, it keeps its value.
   */
  inactivityReportYears: z
    .number({ message: 'Give a number of years.' })
    .int({ message: 'Give a whole number of years.' })
    .min(INACTIVITY_REPORT_YEARS.min, { message: `At least ${INACTIVITY_REPORT_YEARS.min} year.` })
    .max(INACTIVITY_REPORT_YEARS.max, { message: `At most ${INACTIVITY_REPORT_YEARS.max} years.` })
    .optional(),
  logo: imageDataUrl(LOGO_MESSAGES),
  /**
   * Which tax receipt donors living outside France and Switzerland get: `cerfa` (the default) or
   * `attestation` (see {@link RECEIPT_KINDS}). Left out, it keeps its value.
   */
  receiptForOtherCountries: z.enum(RECEIPT_KINDS, { message: 'Choose cerfa or attestation.' }).optional(),
  /**
   * The organisation's structured address, as the Swiss QR-bill's creditor (SIX QR-bill v2.3, address
   * type "S"): street without the number (≤ 70 characters), building number (≤ 16), postal code (≤ 16)
   * and town (≤ 35), each empty while unknown; see {@link ADDRESS_MAX_LENGTHS}. `address` above stays
   * the free text printed on documents. Each left out keeps its value.
   */
  addressStreet: text(ADDRESS_MAX_LENGTHS.street).optional(),
  addressBuildingNumber: text(ADDRESS_MAX_LENGTHS.buildingNumber).optional(),
  addressPostcode: text(ADDRESS_MAX_LENGTHS.postcode).optional(),
  addressTown: text(ADDRESS_MAX_LENGTHS.town).optional(),
  /** Country of the structured address: ISO 3166-1 alpha-2 (`FR`, `CH`), or null. Left out, it keeps its value. */
  addressCountry: countryCodeSchema.nullable().optional(),
  /**
   * The box the organisation ticks in the Cerfa's "Bénéficiaire" section ({@link ORGANISATION_TYPES};
   * `general-interest` by default) and its detail: the date of the decree for `public-utility`, what
   * the organisation is for `other` (≤ 200 characters). Each left out keeps its value.
   */
  organisationType: z.enum(ORGANISATION_TYPE_KEYS, { message: 'Choose a type of organisation.' }).optional(),
  organisationTypeDetail: text(200).optional(),
  /**
   * Calendar days between the email telling a debtor of a direct debit and its due date (2 to 60, 14
   * by default; {@link SEPA_PRE_NOTIFICATION_DAYS}). Left out, it keeps its value.
   */
  sepaPreNotificationDays: z
    .number({ message: 'Give a number of days.' })
    .int({ message: 'Give a whole number of days.' })
    .min(SEPA_PRE_NOTIFICATION_DAYS.min, { message: `At least ${SEPA_PRE_NOTIFICATION_DAYS.min} days.` })
    .max(SEPA_PRE_NOTIFICATION_DAYS.max, { message: `At most ${SEPA_PRE_NOTIFICATION_DAYS.max} days.` })
    .optional(),
  /**
   * Whether a mandate's first collection is sent as RCUR rather than FRST, as the EPC rulebook allows
   * since November 2016 (false by default: some banks still expect FRST). Left out, it keeps its value.
   */
  sepaFirstAsRecurring: z.boolean({ message: 'Choose yes or no.' }).optional(),
  /**
   * The account SEPA direct debits are credited to: its IBAN (spaces and case ignored; checked with
   * ibantools; the server stores it without spaces, in capitals) and its bank's BIC (optional, stored
   * in capitals); each empty while unknown. Each left out keeps its value.
   */
  sepaCreditorIban: z
    .string({ message: 'This IBAN is not valid.' })
    .trim()
    .max(50, { message: 'This IBAN is not valid.' })
    .refine((value) => value === '' || isValidIBAN(electronicFormatIBAN(value) ?? ''), {
      message: 'This IBAN is not valid.',
    })
    .optional(),
  sepaCreditorBic: z
    .string({ message: 'This BIC is not valid.' })
    .trim()
    .max(11, { message: 'This BIC is not valid.' })
    .refine((value) => value === '' || isValidBIC(value.toUpperCase()), { message: 'This BIC is not valid.' })
    .optional(),
  /**
   * The accounts invoices are paid to, at most one per currency ({@link BANK_ACCOUNT_CURRENCIES}): an
   * IBAN, or a Swiss QR-IBAN (then invoices in that currency carry a QR reference, else an ISO 11649
   * RF creditor reference), spaces and case ignored, stored without spaces in capitals. Each error
   * names the field (`bankAccounts.0.iban`). Left out, it keeps its value.
   */
  bankAccounts: z
    .array(bankAccountSchema, { message: 'Give a list of accounts.' })
    .max(BANK_ACCOUNT_CURRENCIES.length, { message: 'One account per currency.' })
    .superRefine((accounts, context) => {
      const seen = new Set<string>();
      for (const [index, account] of accounts.entries()) {
        if (seen.has(account.currency)) {
          context.addIssue({
            code: 'custom',
            path: [index, 'currency'],
            message: `There is already an account in ${account.currency}.`,
          });
        }
        seen.add(account.currency);
      }
    })
    .optional(),
  /**
   * Whether euro invoices that carry no Swiss QR-bill end with an EPC QR code (EPC069-12, "girocode")
   * a banking app scans to fill the transfer (false by default). Left out, it keeps its value.
   */
  epcQrCode: z.boolean({ message: 'Choose yes or no.' }).optional(),
  /**
   * The signatory's signature printed on receipts: a data URL, PNG or JPEG, with the logo's limits
   * (1 MB, 2,000 × 2,000 pixels), stored re-encoded; null for none. Left out, it keeps its value.
   */
  signatureImage: imageDataUrl(SIGNATURE_IMAGE_MESSAGES).optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** Subject of the returned-brochure email while the settings leave it empty (part 2 §7 Subscribers). */
export const DEFAULT_BROCHURE_EMAIL_SUBJECT = DEFAULT_EMAIL_TEMPLATES.brochureEmailSubject;

/** Text of the returned-brochure email while the settings leave it empty (part 2 §7 Subscribers). */
export const DEFAULT_BROCHURE_EMAIL_TEXT = DEFAULT_EMAIL_TEMPLATES.brochureEmailText;
