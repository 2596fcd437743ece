import type { CreateSaleInput } from '@back-office/contract/sales';
import { sql } from 'drizzle-orm';
import { isQRReferenceValid, isSCORReferenceValid } from 'swissqrbill/utils';
import { describe, expect, it } from 'vitest';
import { asAdministrator, type TestApi } from '../../../test/api.ts';
import { useTestApp } from '../../../test/context.ts';
import { buildSale, buildSubscriber, insertProduct, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { readQrCode } from '../../../test/qr.ts';

const ctx = useTestApp();

/** A QR-IBAN (institution id 31999) and a plain IBAN of Swiss banks, a French IBAN (valid check digits). */
const QR_IBAN = 'CH4431999123000889012';
const SWISS_IBAN = 'CH9300762011623852957';
const FRENCH_IBAN = 'FR7630006000011234567890189';

/** The organisation in Geneva, with its structured address; `overrides` replaces any setting. */
async function configure(api: TestApi, overrides: Record<string, unknown> = {}) {
  const current = await api.expectStatus<Record<string, unknown>>(200, 'GET', '/api/settings');
  await api.expectStatus(200, 'PUT', '/api/settings', {
    ...current,
    organisationName: 'Les Amis du Léman',
    address: 'Rue du Lac 12, 1204 Genève',
    invoiceFooter: 'Association à but non lucratif',
    addressStreet: 'Rue du Lac',
    addressBuildingNumber: '12',
    addressPostcode: '1204',
    addressTown: 'Genève',
    addressCountry: 'CH',
    bankAccounts: [],
    epcQrCode: false,
    ...overrides,
  });
}

/** A sale of one item at 43.65 (francs for a Swiss sale, else euros), bought by Hans Müller in Geneva. */
async function sale(api: TestApi, overrides: Partial<CreateSaleInput> = {}) {
  const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
  const item = await insertProduct(ctx, { euroPrice: 43.65, swissPrice: 43.65 });
  return api.expectStatus<{ id: number; ref: number }>(
    201,
    'POST',
    '/api/sales',
    buildSale(
      buyer?.id ?? 0,
      [{ productId: item.id, quantity: 1, euroUnitPrice: 43.65, swissUnitPrice: 43.65 }],
      {
        fullName: 'M. Hans Müller',
        swissSale: true,
        addr1: 'Rue du Rhône 1',
        postcode: '1204',
        town: 'Genève',
        country: 'Suisse',
        ...overrides,
      },
    ),
  );
}

/** The invoice PDF (200), its pages' text and the QR code of its last page. */
async function invoice(api: TestApi, id: number) {
  const answer = await api.send('GET', `/api/sales/receipt/${id}`);
  expect(answer.status, answer.raw.toString().slice(0, 500)).toBe(200);
  const pages = await pdfPages(answer.raw);
  return { pdf: answer.raw, pages, qr: await readQrCode(answer.raw, pages.length) };
}

const referenceOf = async (api: TestApi, id: number) =>
  (await api.expectStatus<{ paymentReference: string | null }>(200, 'GET', `/api/sales/${id}`))
    .paymentReference;

/**
 * The Swiss Payments Code lines of a QR-bill (SIX QR-bill implementation guidelines v2.3, 4.2.2 "Data
 * elements in the QR code"), each named.
 */
function spcLines(payload: string) {
  const lines = payload.split('\n');
  const names = [
    'QRType',
    'Version',
    'Coding',
    'IBAN',
    'CdtrAdrTp',
    'CdtrName',
    'CdtrStrtNmOrAdrLine1',
    'CdtrBldgNbOrAdrLine2',
    'CdtrPstCd',
    'CdtrTwnNm',
    'CdtrCtry',
    'UltmtCdtrAdrTp',
    'UltmtCdtrName',
    'UltmtCdtrStrtNm',
    'UltmtCdtrBldgNb',
    'UltmtCdtrPstCd',
    'UltmtCdtrTwnNm',
    'UltmtCdtrCtry',
    'Amt',
    'Ccy',
    'UltmtDbtrAdrTp',
    'UltmtDbtrName',
    'UltmtDbtrStrtNm',
    'UltmtDbtrBldgNb',
    'UltmtDbtrPstCd',
    'UltmtDbtrTwnNm',
    'UltmtDbtrCtry',
    'RmtInfTp',
    'RmtInfRef',
    'Ustrd',
    'Trailer',
  ];
  expect(lines.length, payload).toBe(names.length);
  return Object.fromEntries(names.map((name, index) => [name, lines[index]]));
}

const NO_ULTIMATE_CREDITOR = {
  UltmtCdtrAdrTp: '',
  UltmtCdtrName: '',
  UltmtCdtrStrtNm: '',
  UltmtCdtrBldgNb: '',
  UltmtCdtrPstCd: '',
  UltmtCdtrTwnNm: '',
  UltmtCdtrCtry: '',
};

const CREDITOR = {
  CdtrAdrTp: 'S',
  CdtrName: 'Les Amis du Léman',
  CdtrStrtNmOrAdrLine1: 'Rue du Lac',
  CdtrBldgNbOrAdrLine2: '12',
  CdtrPstCd: '1204',
  CdtrTwnNm: 'Genève',
  CdtrCtry: 'CH',
};

describe('the QR-bill of invoices', () => {
  it('ends a CHF invoice paid to a QR-IBAN with the payment part: QRR reference, structured addresses', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { bankAccounts: [{ currency: 'CHF', iban: 'ch44 3199 9123 0008 8901 2' }] });
    const { id, ref } = await sale(api);
    const { pages, qr } = await invoice(api, id);

    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain(`N° ${ref}`);
    expect(pages[0]).toContain('Association à but non lucratif');
    expect(pages[0]).not.toContain('Section paiement');
    const last = pages[1] ?? '';
    for (const text of [
      'Récépissé',
      'Section paiement',
      'Compte / Payable à',
      'CH44 3199 9123 0008 8901 2',
      'Référence',
      'Informations supplémentaires',
      `Facture n° ${ref}`,
      'Payable par',
      'M. Hans Müller',
      'Rue du Rhône 1',
      'Monnaie',
      'Montant',
      '43.65',
      'Point de dépôt',
    ]) {
      expect(last, text).toContain(text);
    }
    // The footer stays off the page of the payment part, which takes its bottom 105 mm.
    expect(last).not.toContain('Association à but non lucratif');

    const reference = await referenceOf(api, id);
    expect(reference).toMatch(/^\d{27}$/);
    expect(isQRReferenceValid(reference ?? '')).toBe(true);
    expect(spcLines(qr ?? '')).toEqual({
      QRType: 'SPC',
      Version: '0200',
      Coding: '1',
      IBAN: QR_IBAN,
      ...CREDITOR,
      ...NO_ULTIMATE_CREDITOR,
      Amt: '43.65',
      Ccy: 'CHF',
      UltmtDbtrAdrTp: 'S',
      UltmtDbtrName: 'M. Hans Müller',
      UltmtDbtrStrtNm: 'Rue du Rhône',
      UltmtDbtrBldgNb: '1',
      UltmtDbtrPstCd: '1204',
      UltmtDbtrTwnNm: 'Genève',
      UltmtDbtrCtry: 'CH',
      RmtInfTp: 'QRR',
      RmtInfRef: reference,
      Ustrd: `Facture n° ${ref}`,
      Trailer: 'EPD',
    });

    // Every download shows the same payment part.
    expect((await invoice(api, id)).qr).toBe(qr);
  });

  it('quotes an RF creditor reference (SCOR) on a plain Swiss IBAN, to a buyer in France', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { bankAccounts: [{ currency: 'CHF', iban: SWISS_IBAN }] });
    const { id, ref } = await sale(api, {
      addr1: '12 rue de la Paix',
      postcode: '75002',
      town: 'Paris',
      country: 'France',
    });
    const { qr } = await invoice(api, id);
    const reference = await referenceOf(api, id);
    expect(reference).toMatch(new RegExp(`^RF\\d{2}${ref}$`));
    expect(isSCORReferenceValid(reference ?? '')).toBe(true);
    expect(spcLines(qr ?? '')).toMatchObject({
      IBAN: SWISS_IBAN,
      ...CREDITOR,
      Amt: '43.65',
      Ccy: 'CHF',
      UltmtDbtrAdrTp: 'S',
      // A leading number is not split out: the whole line is the street.
      UltmtDbtrStrtNm: '12 rue de la Paix',
      UltmtDbtrBldgNb: '',
      UltmtDbtrPstCd: '75002',
      UltmtDbtrTwnNm: 'Paris',
      UltmtDbtrCtry: 'FR',
      RmtInfTp: 'SCOR',
      RmtInfRef: reference,
      Ustrd: `Facture n° ${ref}`,
      Trailer: 'EPD',
    });
  });

  it('ends a EUR invoice with a QR-bill in EUR when the euro account is Swiss', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { bankAccounts: [{ currency: 'EUR', iban: SWISS_IBAN }], epcQrCode: true });
    const { id, ref } = await sale(api, { swissSale: false });
    const { pages, qr } = await invoice(api, id);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('EUR');
    expect(pages.join(' ')).not.toContain('scannez ce code');
    expect(spcLines(qr ?? '')).toMatchObject({
      IBAN: SWISS_IBAN,
      Amt: '43.65',
      Ccy: 'EUR',
      RmtInfTp: 'SCOR',
      RmtInfRef: `RF${(await referenceOf(api, id))?.slice(2, 4)}${ref}`,
    });
  });

  it('refuses a CHF invoice without a CHF account, naming the settings field, and leaves it unissued', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { bankAccounts: [{ currency: 'EUR', iban: FRENCH_IBAN }] });
    const { id } = await sale(api);
    const answer = await api.send<{ code: string; detail: string; errors: Array<{ path: string }> }>(
      'GET',
      `/api/sales/receipt/${id}`,
    );
    expect(answer.status).toBe(409);
    expect(answer.headers['content-type']).toContain('application/problem+json');
    expect(answer.body.code).toBe('sales.qr_bill_impossible');
    expect(answer.body.detail).toContain('complete the settings');
    expect(answer.body.errors.map((error) => error.path)).toEqual(['bankAccounts']);
    const after = await api.expectStatus<{ invoiceIssued: boolean; paymentReference: string | null }>(
      200,
      'GET',
      `/api/sales/${id}`,
    );
    expect(after).toMatchObject({ invoiceIssued: false, paymentReference: null });

    // A foreign account in francs cannot carry a QR-bill either.
    await configure(api, { bankAccounts: [{ currency: 'CHF', iban: FRENCH_IBAN }] });
    const foreign = await api.send<{ errors: Array<{ path: string; message: string }> }>(
      'GET',
      `/api/sales/receipt/${id}`,
    );
    expect(foreign.status).toBe(409);
    expect(foreign.body.errors).toEqual([
      { path: 'bankAccounts', message: expect.stringContaining('Swiss or Liechtenstein') },
    ]);
  });

  it("names the organisation's missing address fields", async () => {
    const api = await asAdministrator(ctx);
    await configure(api, {
      bankAccounts: [{ currency: 'CHF', iban: QR_IBAN }],
      addressStreet: '',
      addressTown: '',
      addressCountry: null,
    });
    const { id } = await sale(api);
    const answer = await api.send<{ code: string; errors: Array<{ path: string }> }>(
      'GET',
      `/api/sales/receipt/${id}`,
    );
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('sales.qr_bill_impossible');
    expect(answer.body.errors.map((error) => error.path)).toEqual([
      'addressStreet',
      'addressTown',
      'addressCountry',
    ]);
  });

  it("asks for the buyer's address a QR-bill needs when a sale in francs is made", async () => {
    const api = await asAdministrator(ctx);
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const item = await insertProduct(ctx, { euroPrice: 43.65, swissPrice: 43.65 });
    const payload = (overrides: Partial<CreateSaleInput>) =>
      buildSale(
        buyer?.id ?? 0,
        [{ productId: item.id, quantity: 1, euroUnitPrice: 43.65, swissUnitPrice: 43.65 }],
        { fullName: 'M. Hans Müller', swissSale: true, addr1: 'Rue du Rhône 1', ...overrides },
      );
    const refused = await api.send<{ code: string; errors: Array<{ path: string; message: string }> }>(
      'POST',
      '/api/sales',
      payload({ postcode: '', town: 'Genève', country: 'Atlantide' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'sales.invalid',
      errors: [
        { path: 'postcode', message: "The buyer's postcode is required." },
        { path: 'country', message: 'The country "Atlantide" has no ISO code in the list of countries.' },
      ],
    });
    // A sale in euros needs none of it.
    expect(
      (
        await api.send(
          'POST',
          '/api/sales',
          payload({ swissSale: false, postcode: '', town: '', country: '' }),
        )
      ).status,
    ).toBe(201);
  });

  it("names the sale's fields when the buyer's address of a sale made before cannot be structured", async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { bankAccounts: [{ currency: 'CHF', iban: QR_IBAN }] });
    // Sales made before their address was asked for at creation.
    const blank = async (id: number, values: { postcode?: string; town?: string; country?: string }) =>
      ctx.database.db.execute(
        sql`update sales set postcode = coalesce(${values.postcode ?? null}, postcode),
          town = coalesce(${values.town ?? null}, town), country = coalesce(${values.country ?? null}, country)
          where id = ${id}`,
      );
    const { id } = await sale(api);
    await blank(id, { postcode: '', town: 'Genève', country: 'Atlantide' });
    const answer = await api.send<{
      code: string;
      detail: string;
      errors: Array<{ path: string; message: string }>;
    }>('GET', `/api/sales/receipt/${id}`);
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('sales.qr_bill_impossible');
    expect(answer.body.detail).toContain("complete the buyer's address");
    expect(answer.body.errors).toEqual([
      { path: 'postcode', message: "The buyer's postcode is required." },
      { path: 'country', message: 'The country "Atlantide" has no ISO code in the list of countries.' },
    ]);
    const { id: noTown } = await sale(api);
    await blank(noTown, { town: '', country: '' });
    const missing = await api.send<{ errors: Array<{ path: string }> }>(
      'GET',
      `/api/sales/receipt/${noTown}`,
    );
    expect(missing.body.errors.map((error) => error.path)).toEqual(['town', 'country']);
  });

  it('ends a EUR invoice paid to a SEPA account with an EPC QR code when asked to', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, {
      bankAccounts: [{ currency: 'EUR', iban: FRENCH_IBAN }],
      epcQrCode: true,
      sepaCreditorIban: FRENCH_IBAN,
      sepaCreditorBic: 'agrifrpp',
    });
    const { id, ref } = await sale(api, { swissSale: false, country: 'France', postcode: '', town: '' });
    const { pages, qr } = await invoice(api, id);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Payer par virement : scannez ce code avec votre application bancaire');
    expect(pages[0]).toContain('IBAN : FR76 3000 6000 0112 3456 7890 189');
    const reference = await referenceOf(api, id);
    expect(pages[0]).toContain(`Référence : ${reference}`);
    expect(reference).toMatch(new RegExp(`^RF\\d{2}${ref}$`));
    // EPC069-12 version 002, section 3.
    const lines = (qr ?? '').split('\n');
    expect(lines).toEqual([
      'BCD', // Service tag
      '002', // Version
      '1', // Character set: UTF-8
      'SCT', // Identification: SEPA credit transfer
      'AGRIFRPP', // BIC of the beneficiary bank
      'Les Amis du Léman', // Beneficiary's name
      FRENCH_IBAN, // Beneficiary's account
      'EUR43.65', // Amount
      '', // Purpose
      reference, // Structured remittance information (ISO 11649)
      '', // Unstructured remittance information: not with a structured one
      `Facture n° ${ref}`, // Beneficiary to originator information
    ]);

    // Without the setting, no code.
    await configure(api, { bankAccounts: [{ currency: 'EUR', iban: FRENCH_IBAN }], epcQrCode: false });
    const { id: plain } = await sale(api, { swissSale: false });
    const without = await invoice(api, plain);
    expect(without.qr).toBeUndefined();
    expect(without.pages.join(' ')).not.toContain('scannez ce code');
  });

  it('gives no payment part to an invoice issued before payment references', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { bankAccounts: [{ currency: 'CHF', iban: QR_IBAN }] });
    const { id } = await sale(api);
    // Issued before: no reference (and an address a QR-bill could not take).
    await ctx.database.db.execute(
      sql`update sales set invoice_issued_at = now(), payment_reference = null, payment_iban = null,
        postcode = '' where id = ${id}`,
    );
    const { pages, qr } = await invoice(api, id);
    expect(pages).toHaveLength(1);
    expect(pages[0]).not.toContain('Section paiement');
    expect(qr).toBeUndefined();
  });

  it('keeps an invoice issued without an account downloadable, without payment part', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { bankAccounts: [{ currency: 'CHF', iban: QR_IBAN }] });
    const { id, ref } = await sale(api);
    // Issued while no account in francs was set: an RF reference, no account; the account set since
    // does not change it.
    await ctx.database.db.execute(
      sql`update sales set invoice_issued_at = now(), payment_reference = ${`RF00${ref}`}, payment_iban = null where id = ${id}`,
    );
    const { pages, qr } = await invoice(api, id);
    expect(pages).toHaveLength(1);
    expect(qr).toBeUndefined();

    // The organisation's address is a setting: completing it makes the bill, so it is asked for.
    await ctx.database.db.execute(sql`update sales set payment_iban = ${SWISS_IBAN} where id = ${id}`);
    await configure(api, { bankAccounts: [{ currency: 'CHF', iban: QR_IBAN }], addressTown: '' });
    const answer = await api.send<{ errors: Array<{ path: string }> }>('GET', `/api/sales/receipt/${id}`);
    expect(answer.status).toBe(409);
    expect(answer.body.errors.map((error) => error.path)).toEqual(['addressTown']);
  });
});
