import { z } from 'zod';
import { plainString } from './common.ts';

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
  /** Subject of the returned-brochure email; empty means {@link DEFAULT_BROCHURE_EMAIL_SUBJECT}. */
  brochureEmailSubject: text(200).optional(),
  /**
   * Text of the returned-brochure email; empty means {@link DEFAULT_BROCHURE_EMAIL_TEXT}.
   * `{title}`, `{firstName}`, `{lastName}` and `{organisationName}` are replaced when it is sent.
   */
  brochureEmailText: text(10_000).optional(),
  logo: z
    .string()
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 100, { message: LOGO_SIZE_MESSAGE })
    .regex(/^(data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*)?$/, { message: LOGO_TYPE_MESSAGE })
    .nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** Subject of the returned-brochure email while the settings leave it empty (part 2 §7). */
export const DEFAULT_BROCHURE_EMAIL_SUBJECT = 'Brochure retournée';

/** Text of the returned-brochure email while the settings leave it empty (part 2 §7). */
export const DEFAULT_BROCHURE_EMAIL_TEXT = `Bonjour {title} {firstName} {lastName},

La brochure que nous vous avons adressée nous a été retournée : elle n'a pas pu être distribuée à l'adresse que nous avons pour vous.

Pourriez-vous nous indiquer votre adresse postale actuelle en répondant simplement à ce message ? Nous pourrons ainsi continuer à vous envoyer nos publications.

Avec nos remerciements et nos meilleures salutations,

{organisationName}`;
