import { ValidationError } from 'swissqrbill/errors';
import { describe, expect, it } from 'vitest';
import { pdfPages, pdfTextPositions } from '../../../test/pdf-text.ts';
import { renderPdf } from '../../lib/pdf/pdf-renderer.ts';
import {
  epcPayload,
  invoicePaymentPart,
  type PaymentPartInput,
  type PaymentPartSettings,
  qrBillDrawing,
  requirePaymentPart,
  splitStreet,
} from './qr-bill.ts';

const QR_IBAN = 'CH4431999123000889012';
const SWISS_IBAN = 'CH9300762011623852957';
const FRENCH_IBAN = 'FR7630006000011234567890189';
/** The QR reference of the IG v2.3 examples (check digit 7) and an RF creditor reference (ISO 11649). */
const QR_REFERENCE = '210000000003139471430009017';
const RF_REFERENCE = 'RF18539007547034';

const SETTINGS: PaymentPartSettings = {
  organisationName: 'Les Amis du Léman',
  addressStreet: 'Rue du Lac',
  addressBuildingNumber: '12',
  addressPostcode: '1204',
  addressTown: 'Genève',
  addressCountry: 'CH',
  bankAccounts: [{ currency: 'CHF', iban: QR_IBAN }],
  epcQrCode: false,
  sepaCreditorIban: '',
  sepaCreditorBic: '',
};

function input(
  sale: Partial<PaymentPartInput['sale']> = {},
  rest: Partial<PaymentPartInput> = {},
): PaymentPartInput {
  return {
    sale: {
      ref: 42,
      total: '43.65',
      paymentReference: QR_REFERENCE,
      paymentIban: QR_IBAN,
      fullName: 'M. Hans Müller',
      addr1: 'Rue du Rhône 1',
      postcode: '1204',
      town: 'Genève',
      country: 'Suisse',
      ...sale,
    },
    currencyIso: 'CHF',
    countryIso: 'CH',
    ...rest,
  };
}

describe('splitStreet', () => {
  it.each([
    ['Rue du Rhône 1', { street: 'Rue du Rhône', buildingNumber: '1' }],
    ['Bahnhofstrasse 12a', { street: 'Bahnhofstrasse', buildingNumber: '12a' }],
    ['Av. de la Gare, 3', { street: 'Av. de la Gare', buildingNumber: '3' }],
    ['  Chemin  des Vignes   7 B ', { street: 'Chemin des Vignes', buildingNumber: '7B' }],
    ['12 rue de la Paix', { street: '12 rue de la Paix' }],
    ['Route 66', { street: 'Route', buildingNumber: '66' }],
    ['Lieu-dit Les Granges', { street: 'Lieu-dit Les Granges' }],
    ['Case postale 1234 5', { street: 'Case postale 1234 5' }],
    ['', { street: '' }],
  ])('splits %j', (line, expected) => {
    expect(splitStreet(line)).toEqual(expected);
  });
});

describe('invoicePaymentPart', () => {
  it('makes a QR-bill of a CHF invoice: creditor and debtor with structured addresses, amount in francs', () => {
    const part = invoicePaymentPart(input(), SETTINGS);
    expect(part).toEqual({
      kind: 'qr-bill',
      data: {
        currency: 'CHF',
        amount: 43.65,
        reference: QR_REFERENCE,
        message: 'Facture n° 42',
        creditor: {
          account: QR_IBAN,
          name: 'Les Amis du Léman',
          address: 'Rue du Lac',
          buildingNumber: '12',
          zip: '1204',
          city: 'Genève',
          country: 'CH',
        },
        debtor: {
          name: 'M. Hans Müller',
          address: 'Rue du Rhône',
          buildingNumber: '1',
          zip: '1204',
          city: 'Genève',
          country: 'CH',
        },
      },
    });
    // swissqrbill's own validation accepts it.
    if (part.kind === 'qr-bill') expect(() => qrBillDrawing(part.data)).not.toThrow();
  });

  it('takes the account fixed on the sale, not the one of the settings now', () => {
    const part = invoicePaymentPart(input({ paymentIban: SWISS_IBAN, paymentReference: RF_REFERENCE }), {
      ...SETTINGS,
      bankAccounts: [{ currency: 'CHF', iban: QR_IBAN }],
    });
    expect(part).toMatchObject({
      kind: 'qr-bill',
      data: { creditor: { account: SWISS_IBAN }, reference: RF_REFERENCE },
    });
    if (part.kind === 'qr-bill') expect(() => qrBillDrawing(part.data)).not.toThrow();
  });

  it('makes a QR-bill in EUR on a Swiss account', () => {
    expect(
      invoicePaymentPart(
        input({ paymentIban: SWISS_IBAN, paymentReference: RF_REFERENCE }, { currencyIso: 'EUR' }),
        SETTINGS,
      ),
    ).toMatchObject({ kind: 'qr-bill', data: { currency: 'EUR', creditor: { account: SWISS_IBAN } } });
  });

  it('has nothing for an invoice without reference, a total of 0 or another currency', () => {
    expect(invoicePaymentPart(input({ paymentReference: null }), SETTINGS)).toEqual({ kind: 'none' });
    expect(invoicePaymentPart(input({ total: '0.00' }), SETTINGS)).toEqual({ kind: 'none' });
    expect(invoicePaymentPart(input({}, { currencyIso: 'USD' }), SETTINGS)).toEqual({ kind: 'none' });
  });

  it('names the settings to complete for a CHF invoice without a Swiss account or address', () => {
    expect(
      invoicePaymentPart(input({ paymentIban: null, paymentReference: RF_REFERENCE }), SETTINGS),
    ).toEqual({
      kind: 'impossible',
      fixIn: 'settings',
      problems: [{ path: 'bankAccounts', message: expect.stringContaining('Set the CHF account') }],
    });
    expect(
      invoicePaymentPart(input({ paymentIban: FRENCH_IBAN, paymentReference: RF_REFERENCE }), {
        ...SETTINGS,
        organisationName: 'x'.repeat(71),
        addressPostcode: ' ',
        addressCountry: null,
      }),
    ).toEqual({
      kind: 'impossible',
      fixIn: 'settings',
      problems: [
        { path: 'bankAccounts', message: expect.stringContaining('not Swiss or Liechtenstein') },
        { path: 'organisationName', message: 'At most 70 characters.' },
        { path: 'addressPostcode', message: "The postcode of the organisation's address is required." },
        { path: 'addressCountry', message: "The country of the organisation's address is required." },
      ],
    });
  });

  it("names the sale's fields when the buyer's address cannot be structured", () => {
    expect(
      invoicePaymentPart(
        input({ postcode: '', town: 't'.repeat(36), country: 'Atlantide' }, { countryIso: null }),
        SETTINGS,
      ),
    ).toEqual({
      kind: 'impossible',
      fixIn: 'sale',
      problems: [
        { path: 'postcode', message: "The buyer's postcode is required." },
        { path: 'town', message: 'At most 35 characters.' },
        { path: 'country', message: 'The country "Atlantide" has no ISO code in the list of countries.' },
      ],
    });
    expect(invoicePaymentPart(input({ fullName: 'Иван Петров' }), SETTINGS)).toMatchObject({
      kind: 'impossible',
      problems: [{ path: 'fullName', message: 'The name has characters a QR-bill cannot carry.' }],
    });
  });

  it('throws 409 sales.qr_bill_impossible with the field errors', () => {
    expect(() => requirePaymentPart(input({ town: '' }), SETTINGS)).toThrow(
      expect.objectContaining({
        code: 'sales.qr_bill_impossible',
        status: 409,
        errors: [{ path: 'town', message: "The buyer's town is required." }],
      }),
    );
  });

  it('leaves an issued invoice whose account or buyer no QR-bill can take without payment part', () => {
    expect(requirePaymentPart(input({ town: '' }), SETTINGS, { issued: true })).toEqual({ kind: 'none' });
    expect(
      requirePaymentPart(input({ paymentIban: null, paymentReference: RF_REFERENCE }), SETTINGS, {
        issued: true,
      }),
    ).toEqual({ kind: 'none' });
    // The organisation's address can still be completed: it is asked for.
    expect(() => requirePaymentPart(input(), { ...SETTINGS, addressTown: '' }, { issued: true })).toThrow(
      expect.objectContaining({
        code: 'sales.qr_bill_impossible',
        errors: [expect.objectContaining({ path: 'addressTown' })],
      }),
    );
  });

  it('gives a EUR invoice on a SEPA account an EPC QR code only when the setting asks for it', () => {
    const eur = input(
      { paymentIban: FRENCH_IBAN, paymentReference: RF_REFERENCE, postcode: '' },
      { currencyIso: 'EUR' },
    );
    expect(invoicePaymentPart(eur, SETTINGS)).toEqual({ kind: 'none' });
    expect(
      invoicePaymentPart(eur, {
        ...SETTINGS,
        epcQrCode: true,
        sepaCreditorIban: 'FR76 3000 6000 0112 3456 7890 189',
        sepaCreditorBic: 'agrifrpp',
      }),
    ).toEqual({
      kind: 'epc',
      payload: [
        'BCD',
        '002',
        '1',
        'SCT',
        'AGRIFRPP',
        'Les Amis du Léman',
        FRENCH_IBAN,
        'EUR43.65',
        '',
        RF_REFERENCE,
        '',
        'Facture n° 42',
      ].join('\n'),
    });
    // Without an account, or one outside the SEPA area: nothing.
    expect(
      invoicePaymentPart(
        { ...eur, sale: { ...eur.sale, paymentIban: null } },
        { ...SETTINGS, epcQrCode: true },
      ),
    ).toEqual({
      kind: 'none',
    });
    expect(
      invoicePaymentPart(
        { ...eur, sale: { ...eur.sale, paymentIban: 'BR1800360305000010009795493C1' } },
        { ...SETTINGS, epcQrCode: true },
      ),
    ).toEqual({ kind: 'none' });
  });
});

describe('epcPayload', () => {
  it('leaves the BIC out when unknown and formats the amount in euros with two decimals', () => {
    expect(
      epcPayload({
        bic: '',
        name: 'Asso',
        iban: FRENCH_IBAN,
        amount: 1200.5,
        reference: RF_REFERENCE,
        text: 'Facture n° 1',
      })
        .split('\n')
        .slice(4, 8),
    ).toEqual(['', 'Asso', FRENCH_IBAN, 'EUR1200.50']);
  });
});

describe('qrBillDrawing', () => {
  it('lets swissqrbill refuse data that breaks the guidelines: a QR-IBAN with an RF reference', () => {
    const part = invoicePaymentPart(input(), SETTINGS);
    if (part.kind !== 'qr-bill') throw new Error('expected a QR-bill');
    expect(() => qrBillDrawing({ ...part.data, reference: RF_REFERENCE })).toThrow(ValidationError);
  });

  it('draws the receipt and the payment part in the bottom 105 mm of the last page, in Helvetica', async () => {
    const part = invoicePaymentPart(input(), SETTINGS);
    if (part.kind !== 'qr-bill') throw new Error('expected a QR-bill');
    const pdf = await renderPdf(
      { content: [{ text: 'Facture' }, { text: 'Page du paiement', pageBreak: 'before' }] },
      { drawOnLastPage: qrBillDrawing(part.data) },
    );
    const pages = await pdfPages(pdf);
    expect(pages).toHaveLength(2);
    expect(pages[0]).not.toContain('Récépissé');
    const { height, items } = await pdfTextPositions(pdf, 2);
    const mm = 72 / 25.4;
    expect(height).toBeCloseTo(297 * mm, 0);
    const at = (text: string) => items.find((item) => item.text === text);
    expect(at('Page du paiement')?.y).toBeGreaterThan(105 * mm);
    // The receipt is the left 62 mm, the payment part the rest (IG v2.3, 3.1).
    expect(at('Récépissé')).toMatchObject({ x: expect.closeTo(5 * mm, 0) });
    expect(at('Section paiement')?.x).toBeGreaterThan(62 * mm);
    const part105 = items.filter((item) => item.text !== 'Page du paiement');
    expect(part105.length).toBeGreaterThan(20);
    for (const item of part105) expect(item.y, item.text).toBeLessThan(105 * mm);
    expect(pdf.toString('latin1')).toContain('/BaseFont /Helvetica-Bold');
  });
});
