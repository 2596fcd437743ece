import { electronicFormatIBAN, friendlyFormatIBAN, isSEPACountry, isValidIBAN } from 'ibantools';
import type { Content } from 'pdfmake/interfaces';
import { SwissQRBill } from 'swissqrbill/pdf';
import type { Data } from 'swissqrbill/types';
import type { FieldError } from '../../lib/errors.ts';
import { qrCodeImage } from '../../lib/pdf/qr-code-image.ts';
import type { EffectiveSettings } from '../settings/settings.service.ts';
import { createQrBillImpossibleError } from './sales.errors.ts';
import type { SaleRow } from './sales.repository.ts';

/**
 * The payment part of invoices: the Swiss QR-bill (SIX "Swiss Implementation Guidelines for the
 * QR-bill" v2.3, called "IG" below) and the EPC QR code of euro transfers (EPC069-12 "Quick Response
 * Code: guidelines to enable data capture for the initiation of a SEPA credit transfer", version 002).
 */

/** What of a sale its payment part reads; `total` is in units of its currency (francs or euros). */
export type PaymentPartSale = Pick<
  SaleRow,
  | 'ref'
  | 'total'
  | 'paymentReference'
  | 'paymentIban'
  | 'fullName'
  | 'addr1'
  | 'postcode'
  | 'town'
  | 'country'
>;

/** What of the settings the payment part reads. */
export type PaymentPartSettings = Pick<
  EffectiveSettings,
  | 'organisationName'
  | 'addressStreet'
  | 'addressBuildingNumber'
  | 'addressPostcode'
  | 'addressTown'
  | 'addressCountry'
  | 'bankAccounts'
  | 'epcQrCode'
  | 'sepaCreditorIban'
  | 'sepaCreditorBic'
>;

/**
 * The sale as the payment part needs it: the sale row, the ISO 4217 code of its currency and the
 * ISO 3166-1 alpha-2 code of its buyer's country (null when unknown).
 */
export type PaymentPartInput = {
  sale: PaymentPartSale;
  currencyIso: string | null;
  countryIso: string | null;
};

/**
 * What ends an invoice: nothing; a QR-bill (`data` as `swissqrbill` takes it, amount in francs or
 * euros); an EPC QR code (`payload`, EPC069-12); or nothing possible, with the fields to complete,
 * either in the settings or in the sale (`fixIn`).
 */
export type PaymentPart =
  | { kind: 'none' }
  | { kind: 'qr-bill'; data: Data }
  | { kind: 'epc'; payload: string }
  | { kind: 'impossible'; fixIn: 'settings' | 'sale'; problems: FieldError[] };

/** Longest name, street, building number, postcode and town of a structured address (IG v2.3, 4.2.2). */
const LIMITS = { name: 70, street: 70, buildingNumber: 16, postcode: 16, town: 35 } as const;

/**
 * Characters a QR-bill may carry (IG v2.3, 4.1.1): Basic Latin, Latin-1 Supplement, Latin
 * Extended-A, Ș ș Ț ț and €.
 */
const QR_BILL_CHARACTERS = /^[\u0020-\u007e\u00a0-\u017f\u0218-\u021b\u20ac]*$/;

/** The reference message of every invoice's payment: "Facture n° <ref>". */
export const invoiceMessage = (ref: number) => `Facture n° ${ref}`;

/** Caption of the EPC QR code on euro invoices. */
export const EPC_CAPTION = 'Payer par virement : scannez ce code avec votre application bancaire';

/**
 * A street line split into street and building number when it ends with a simple number ("Rue du
 * Rhône 1", "Bahnhofstrasse 12a", "Av. de la Gare, 3"); otherwise, as in "12 rue de la Paix", the
 * whole line is the street and there is no number (IG v2.3, 4.2.2 allows a street without number).
 */
export function splitStreet(line: string): { street: string; buildingNumber?: string } {
  const trimmed = line.trim().replace(/\s+/g, ' ');
  const match = /^(.*?[^\d\s,]),?\s+(\d{1,5}\s?[a-zA-Z]?)$/.exec(trimmed);
  if (!match?.[1] || !match[2]) return { street: trimmed };
  return { street: match[1], buildingNumber: match[2].replace(/\s/g, '') };
}

/** True for an IBAN of a Swiss or Liechtenstein account, the only ones a QR-bill may name (IG v2.3, 4.2.2). */
export function isSwissIban(iban: string): boolean {
  return /^(CH|LI)/.test(iban) && isValidIBAN(iban);
}

const tooLong = (path: string, max: number): FieldError => ({ path, message: `At most ${max} characters.` });

/**
 * The problems of a sale's buyer as a QR-bill debtor (IG v2.3, 4.2.2, address type S): name, postcode,
 * town and country required, each within its length and the permitted characters; the street comes
 * from `addr1`.
 */
function debtorProblems(
  {
    sale,
    countryIso,
  }: { sale: Pick<PaymentPartSale, 'fullName' | 'postcode' | 'town' | 'country'>; countryIso: string | null },
  street: ReturnType<typeof splitStreet>,
) {
  const problems: FieldError[] = [];
  const check = (path: string, value: string, max: number, label: string, required: boolean) => {
    if (required && !value.trim()) problems.push({ path, message: `The buyer's ${label} is required.` });
    else if (value.trim().length > max) problems.push(tooLong(path, max));
    else if (!QR_BILL_CHARACTERS.test(value))
      problems.push({ path, message: `The ${label} has characters a QR-bill cannot carry.` });
  };
  check('fullName', sale.fullName, LIMITS.name, 'name', true);
  check('addr1', street.street, LIMITS.street, 'street', false);
  check('postcode', sale.postcode, LIMITS.postcode, 'postcode', true);
  check('town', sale.town, LIMITS.town, 'town', true);
  if (!countryIso) {
    problems.push({
      path: 'country',
      message: sale.country.trim()
        ? `The country "${sale.country.trim()}" has no ISO code in the list of countries.`
        : "The buyer's country is required.",
    });
  }
  return problems;
}

/**
 * Why a sale's buyer could not be the debtor of a QR-bill (IG v2.3, 4.2.2, address type S), as field
 * errors on the sale (`fullName`, `addr1`, `postcode`, `town`, `country`); empty when it can. Asked at
 * the sale's creation for a sale in francs, so that its invoice never lacks its bill.
 */
export function qrBillBuyerProblems(
  sale: Pick<PaymentPartSale, 'fullName' | 'addr1' | 'postcode' | 'town' | 'country'>,
  countryIso: string | null,
): FieldError[] {
  return debtorProblems({ sale, countryIso }, splitStreet(sale.addr1));
}

/** The problems of the organisation as a QR-bill creditor (IG v2.3, 4.2.2, address type S). */
function creditorProblems(settings: PaymentPartSettings, iban: string | null, currency: string) {
  const problems: FieldError[] = [];
  if (!iban) {
    problems.push({
      path: 'bankAccounts',
      message: `Set the ${currency} account: a QR-bill needs the IBAN or QR-IBAN of a Swiss or Liechtenstein bank.`,
    });
  } else if (!isSwissIban(iban)) {
    problems.push({
      path: 'bankAccounts',
      message: `The ${currency} account ${iban} is not Swiss or Liechtenstein: a QR-bill needs the IBAN or QR-IBAN of a Swiss or Liechtenstein bank.`,
    });
  }
  const name = settings.organisationName.trim();
  if (!name) problems.push({ path: 'organisationName', message: "The organisation's name is required." });
  else if (name.length > LIMITS.name) problems.push(tooLong('organisationName', LIMITS.name));
  const required = [
    ['addressStreet', settings.addressStreet, 'street'],
    ['addressPostcode', settings.addressPostcode, 'postcode'],
    ['addressTown', settings.addressTown, 'town'],
  ] as const;
  for (const [path, value, label] of required) {
    if (!value.trim())
      problems.push({ path, message: `The ${label} of the organisation's address is required.` });
  }
  if (!settings.addressCountry)
    problems.push({
      path: 'addressCountry',
      message: "The country of the organisation's address is required.",
    });
  return problems;
}

/**
 * The EPC QR code payload of a euro transfer (EPC069-12 version 002, section 3), lines joined by LF:
 * `BCD`, `002`, `1` (UTF-8), `SCT`, the BIC (optional in version 002: given when the account is the
 * settings' SEPA creditor account, which has one), the beneficiary's name (≤ 70), the IBAN, the amount
 * `EUR12.50` (euros, 0.01 to 999999999.99), an empty purpose, the structured reference (an ISO 11649
 * RF reference, ≤ 35; the unstructured remittance stays empty, as only one of the two may be given),
 * then the beneficiary-to-originator information (≤ 70) `Facture n° <ref>`.
 */
export function epcPayload({
  bic,
  name,
  iban,
  amount,
  reference,
  text,
}: {
  bic: string;
  name: string;
  iban: string;
  amount: number;
  reference: string;
  text: string;
}): string {
  return [
    'BCD',
    '002',
    '1',
    'SCT',
    bic,
    name.slice(0, 70),
    iban,
    `EUR${amount.toFixed(2)}`,
    '',
    reference,
    '',
    text.slice(0, 70),
  ].join('\n');
}

/**
 * What ends the invoice of `input` under `settings` (docs/decisions/031):
 * - no `paymentReference` (issued before payment references), a total of 0, a currency other than
 *   CHF and EUR: nothing;
 * - CHF, and EUR paid to a Swiss or Liechtenstein account: the QR-bill, to the sale's `paymentIban`
 *   (fixed at issue), structured addresses only (type S); impossible without a CHF account or with a
 *   foreign one, without the organisation's structured address (settings), or without the buyer's
 *   postcode, town or country (sale);
 * - other EUR invoices: the EPC QR code when `epcQrCode` is on and the account is in a SEPA country,
 *   else nothing.
 */
export function invoicePaymentPart(input: PaymentPartInput, settings: PaymentPartSettings): PaymentPart {
  const { sale, currencyIso } = input;
  const amount = Number(sale.total);
  if (!sale.paymentReference || !(amount > 0)) return { kind: 'none' };
  if (currencyIso !== 'CHF' && currencyIso !== 'EUR') return { kind: 'none' };
  const iban = sale.paymentIban ? (electronicFormatIBAN(sale.paymentIban) ?? sale.paymentIban) : null;
  if (currencyIso === 'EUR' && (!iban || !isSwissIban(iban))) {
    if (!iban || !settings.epcQrCode || !isValidIBAN(iban) || !isSEPACountry(iban.slice(0, 2))) {
      return { kind: 'none' };
    }
    const sepaIban = electronicFormatIBAN(settings.sepaCreditorIban ?? '') ?? '';
    const bic = sepaIban === iban ? (settings.sepaCreditorBic ?? '').toUpperCase() : '';
    return {
      kind: 'epc',
      payload: epcPayload({
        bic,
        name: settings.organisationName.trim(),
        iban,
        amount,
        reference: sale.paymentReference,
        text: invoiceMessage(sale.ref),
      }),
    };
  }
  const settingsProblems = creditorProblems(settings, iban, currencyIso);
  if (settingsProblems.length > 0)
    return { kind: 'impossible', fixIn: 'settings', problems: settingsProblems };
  const street = splitStreet(sale.addr1);
  const saleProblems = debtorProblems(input, street);
  if (saleProblems.length > 0) return { kind: 'impossible', fixIn: 'sale', problems: saleProblems };
  return {
    kind: 'qr-bill',
    data: {
      currency: currencyIso,
      amount,
      reference: sale.paymentReference,
      message: invoiceMessage(sale.ref),
      creditor: {
        account: iban ?? '',
        name: settings.organisationName.trim(),
        address: settings.addressStreet.trim(),
        ...(settings.addressBuildingNumber.trim()
          ? { buildingNumber: settings.addressBuildingNumber.trim() }
          : {}),
        zip: settings.addressPostcode.trim(),
        city: settings.addressTown.trim(),
        country: settings.addressCountry ?? '',
      },
      debtor: {
        name: sale.fullName.trim(),
        address: street.street,
        ...(street.buildingNumber ? { buildingNumber: street.buildingNumber } : {}),
        zip: sale.postcode.trim(),
        city: sale.town.trim(),
        country: input.countryIso ?? '',
      },
    },
  };
}

/**
 * {@link invoicePaymentPart}, throwing when the QR-bill is impossible and can still be made possible.
 * Before the invoice is issued (`issued` false), every problem throws. Once it is issued, its account
 * and buyer are fixed (an invoice issued before these checks may have a sale's address or an account
 * no QR-bill can take): those problems leave the invoice without payment part rather than never
 * downloadable again; the organisation's address, a setting, still throws.
 * @throws 409 `sales.qr_bill_impossible` with the settings fields to complete (`bankAccounts`,
 *   `addressTown`, ...) or the sale's (`postcode`, `town`, `country`, ...).
 */
export function requirePaymentPart(
  input: PaymentPartInput,
  settings: PaymentPartSettings,
  { issued = false }: { issued?: boolean } = {},
): PaymentPart {
  const part = invoicePaymentPart(input, settings);
  if (part.kind !== 'impossible') return part;
  const fixed = part.fixIn === 'sale' || part.problems.some((problem) => problem.path === 'bankAccounts');
  if (issued && fixed) return { kind: 'none' };
  const where =
    part.fixIn === 'settings'
      ? 'complete the settings (invoice payments, structured address)'
      : `complete the buyer's address of the sale #${input.sale.ref}`;
  throw createQrBillImpossibleError(
    `The invoice n° ${input.sale.ref} needs a Swiss QR-bill that cannot be made: ${where}.`,
    part.problems,
  );
}

/**
 * Draws a QR-bill's payment part and receipt (French labels, separation lines with scissors; IG v2.3,
 * 3.1 and 3.7) in the bottom 105 mm of a PDFKit page, with swissqrbill's PDFKit renderer, in Helvetica
 * (IG v2.3, 3.4: Arial, Frutiger, Helvetica or Liberation Sans). The data is checked when this is
 * called, before anything is drawn. Drawn straight on the page, the payment part takes about a fifth of
 * the time the same drawing took through SVG in pdfmake (bench/sales.bench.ts).
 * @throws swissqrbill's `ValidationError` when the data breaks the IG (e.g. a QR-IBAN without QR reference).
 */
export function qrBillDrawing(data: Data): (page: PDFKit.PDFDocument) => void {
  const bill = new SwissQRBill(data, { language: 'FR', fontName: 'Helvetica' });
  return (page) => bill.attachTo(page, 0, page.page.height - SwissQRBill.height);
}

/** What an invoice draws on its last page once laid out: a QR-bill's payment part, or nothing. */
export function paymentPartDrawing(part: PaymentPart): ((page: PDFKit.PDFDocument) => void) | undefined {
  return part.kind === 'qr-bill' ? qrBillDrawing(part.data) : undefined;
}

/**
 * The content that ends an invoice for `part`: for a QR-bill, a new last page under a short title, whose
 * bottom 105 mm {@link paymentPartDrawing} fills with the payment part (IG v2.3, 3.1); for an EPC QR
 * code, the code (error correction M, EPC069-12 section 4) beside its caption, the IBAN and the
 * reference; else nothing.
 */
export function paymentPartContent(part: PaymentPart, ref: number): Content[] {
  if (part.kind === 'qr-bill') {
    return [
      {
        text: `Section paiement de la facture n° ${ref}`,
        fontSize: 10,
        color: '#555555',
        pageBreak: 'before',
      },
    ];
  }
  if (part.kind === 'epc') {
    const [, , , , , , iban = '', , , reference = ''] = part.payload.split('\n');
    return [
      {
        columns: [
          qrCodeImage(part.payload, { size: 110, errorCorrection: 'M' }),
          {
            stack: [
              { text: EPC_CAPTION, bold: true, margin: [0, 0, 0, 6] },
              `IBAN : ${friendlyFormatIBAN(iban) ?? iban}`,
              `Référence : ${reference}`,
            ],
            fontSize: 9,
            margin: [10, 4, 0, 0],
            width: 220,
          },
        ],
        margin: [0, 20, 0, 0],
        unbreakable: true,
      } as Content,
    ];
  }
  return [];
}
