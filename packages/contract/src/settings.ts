import { z } from 'zod';
import { plainString } from './common.ts';
import { DEFAULT_EMAIL_TEMPLATES, emailTemplateSchema } from './email-templates.ts';
import { DOCUMENT_RETENTION_YEARS, INACTIVITY_REPORT_YEARS } from './personal-data.ts';

/**
 * Organisation settings used on receipts, invoices, mandate letters and emails (not in the spec).
 * The logo travels as a data URL (`data:image/png;base64,...`), PNG or JPEG, at most 1 MB decoded and
 * 2,000 × 2,000 pixels (read from the image's header, so a tiny file declaring a huge image is refused
 * before anything decodes it; see docs/security.md).
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

const text = (max: number) =>
  plainString()
    .trim()
    .max(max, { message: `At most ${max} characters.` });

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
  logo: z
    .string()
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 100, { message: LOGO_SIZE_MESSAGE })
    .regex(/^(data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*)?$/, { message: LOGO_TYPE_MESSAGE })
    .nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** Subject of the returned-brochure email while the settings leave it empty (part 2 §7 Subscribers). */
export const DEFAULT_BROCHURE_EMAIL_SUBJECT = DEFAULT_EMAIL_TEMPLATES.brochureEmailSubject;

/** Text of the returned-brochure email while the settings leave it empty (part 2 §7 Subscribers). */
export const DEFAULT_BROCHURE_EMAIL_TEXT = DEFAULT_EMAIL_TEMPLATES.brochureEmailText;
