import { z } from 'zod';
import { plainString } from './common.ts';

/**
 * Organisation settings used on receipts, invoices, mandate letters and emails (issue 3 §5; not in the spec).
 * The logo travels as a data URL (`data:image/png;base64,...`), PNG or JPEG, at most 1 MB decoded.
 */

export const LOGO_MAX_BYTES = 1024 * 1024;

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
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 100, { message: 'The logo must be at most 1 MB.' })
    .regex(/^(data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*)?$/, {
      message: 'The logo must be a PNG or JPEG image.',
    })
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
