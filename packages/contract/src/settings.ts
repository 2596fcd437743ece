import { z } from 'zod';

/**
 * Organisation settings used on receipts, invoices, mandate letters and emails (issue 3 §5; not in the spec).
 * The logo travels as a data URL (`data:image/png;base64,...`), PNG or JPEG, at most 1 MB decoded.
 */

export const LOGO_MAX_BYTES = 1024 * 1024;

const text = (max: number) =>
  z
    .string()
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
  logo: z
    .string()
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 100, { message: 'The logo must be at most 1 MB.' })
    .regex(/^(data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*)?$/, {
      message: 'The logo must be a PNG or JPEG image.',
    })
    .nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;
