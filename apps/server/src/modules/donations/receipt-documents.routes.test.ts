import type { ReceiptChainCheck, ReceiptRegister } from '@back-office/contract/receipts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asAdministrator, type TestApi } from '../../../test/api.ts';
import { testConfig, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertReferenceItem, insertSubscribers } from '../../../test/factories.ts';
import { pdfImageCounts, pdfPages, pdfTitle } from '../../../test/pdf-text.ts';
import { readQrCode } from '../../../test/qr.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

const PNG_1x1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Seeded ids (reference-lists.seed.ts): EURO 1, Swiss Franc 2; France 1, Suisse 2, Belgique 3. */
const EURO = 1;
const FRANC = 2;
const FRANCE = 1;
const SWITZERLAND = 2;
const BELGIUM = 3;

/** The organisation: every setting a receipt prints, the structured address in Thonon-les-Bains. */
async function configure(api: TestApi, overrides: object = {}) {
  await api.expectStatus(200, 'PUT', '/api/settings', {
    organisationName: 'Les Amis du Léman',
    address: 'ancienne adresse',
    emailSenderName: '',
    emailSenderAddress: '',
    sirenOrRna: 'W741000000',
    sepaCreditorId: '',
    signatoryName: 'Claire Dubois',
    signatoryTitle: 'Trésorière',
    organisationPurpose: 'Protection du lac',
    receiptStatement: '',
    invoiceFooter: '',
    paymentTermsText: '',
    logo: null,
    signatureImage: PNG_1x1,
    addressStreet: 'Rue du Lac',
    addressBuildingNumber: '12',
    addressPostcode: '74200',
    addressTown: 'Thonon-les-Bains',
    addressCountry: 'FR',
    organisationType: 'public-utility',
    organisationTypeDetail: 'décret du 3 mars 1985',
    ...overrides,
  });
}

/** Rates of 13 March 2026 (a Friday): 1 EUR = 1.0850 USD = 0.9400 CHF. */
async function rates(api: TestApi) {
  for (const [currency, rate] of [
    ['USD', 1.085],
    ['CHF', 0.94],
  ] as const) {
    await api.expectStatus(201, 'POST', '/api/exchange-rates', { date: '2026-03-13', currency, rate });
  }
}

async function donor(overrides: Parameters<typeof buildSubscriber>[0]) {
  const [saved] = await insertSubscribers(ctx, [buildSubscriber({ paymentMethodId: 1, ...overrides })]);
  if (!saved) throw new Error('no donor');
  return saved;
}

async function give(api: TestApi, subid: number, amount: number, donationDate: string) {
  return api.expectStatus<{ id: number }>(201, 'POST', '/api/donations', { subid, amount, donationDate });
}

async function pdfOf(api: TestApi, url: string) {
  const response = await api.send('GET', url);
  expect(response.status, response.raw.toString()).toBe(200);
  return response.raw;
}

const register = (api: TestApi) => api.expectStatus<ReceiptRegister>(200, 'GET', '/api/receipts');

describe('the document each donor gets', () => {
  it('gives a donor in France a Cerfa in euros with every mention, a gift in dollars converted at the rate of its day', async () => {
    const api = await asAdministrator(ctx);
    await configure(api);
    await rates(api);
    const dollar = await insertReferenceItem(ctx, 'currencies', { name: 'US Dollar', symbol: '$' });
    await api.expectStatus(200, 'PATCH', `/api/currencies/${dollar.id}`, {
      name: 'US Dollar',
      symbol: '$',
      isoCode: 'USD',
    });
    const zoe = await donor({
      title: 'Mme',
      firstName: 'Zoé',
      lastName: 'Martin',
      address1: '3 place Bellecour',
      postcode: '69002',
      town: 'Lyon',
      countryId: FRANCE,
      currencyId: dollar.id,
    });
    // Sunday 15 March: the ECB published nothing since Friday 13, whose rate is used.
    const gift = await give(api, zoe.id, 100, '2026-03-15');
    const pdf = await pdfOf(api, `/api/donations/receipt/${gift.id}`);
    const [page = ''] = await pdfPages(pdf);
    expect(await pdfTitle(pdf)).toBe('Reçu fiscal n° 1');
    for (const text of [
      'Reçu n° 1',
      'Cerfa n° 11580*05',
      // The beneficiary: name, number, structured address, object, the box of its type.
      'Les Amis du Léman',
      'N° SIREN ou RNA : W741000000',
      'Rue du Lac 12',
      '74200 Thonon-les-Bains',
      'Objet : Protection du lac',
      '[X] Association ou fondation reconnue d’utilité publique par décret : décret du 3 mars 1985',
      // The donor.
      'Mme Zoé MARTIN',
      '3 place Bellecour',
      '69002 Lyon',
      // 100 USD / 1.085 = 92.1659 → 92.17 €, in figures and in words, with the original and the rate.
      '92,17 €',
      'quatre-vingt-douze euros et dix-sept centimes',
      'Date du versement : 15 mars 2026',
      '100,00 USD',
      '1 € = 1,0850 USD, taux du 13 mars 2026',
      // The articles, form, nature and payment mode.
      '[X] 200 du CGI',
      '238 bis du CGI',
      '[X] Déclaration de don manuel',
      '[X] Numéraire',
      'Mode de versement',
      // Place, date of issue and signatory.
      'Fait à Thonon-les-Bains, le',
      'Claire Dubois',
      'Trésorière',
    ]) {
      expect(page, text).toContain(text);
    }
    expect(page).not.toContain('ancienne adresse');
    // The signature image (no logo is set) and the QR code: the page's two images.
    expect(await pdfImageCounts(pdf)).toEqual([2]);
    const [receipt] = (await register(api)).models;
    expect(receipt).toMatchObject({ number: 1, amount: 92.17, currency: '€' });
  });

  it('gives a donor in Switzerland an attestation in francs, a gift in euros converted, and its QR code leads to its check', async () => {
    const api = await asAdministrator(ctx);
    await configure(api);
    await rates(api);
    const hans = await donor({
      title: 'M.',
      firstName: 'Hans',
      lastName: 'Müller',
      address1: 'Rue du Rhône 1',
      postcode: '1204',
      town: 'Genève',
      countryId: SWITZERLAND,
      currencyId: EURO,
    });
    await give(api, hans.id, 50, '2026-03-13');
    const pdf = await pdfOf(api, `/api/donations/receipt/${hans.id}/2026`);
    const [page = ''] = await pdfPages(pdf);
    expect(await pdfTitle(pdf)).toBe('Attestation n° 1');
    for (const text of [
      'Attestation n° 1',
      'Attestation de dons 2026',
      'LIFD',
      'Les Amis du Léman',
      'Rue du Lac 12',
      'M. Hans MÜLLER',
      'Rue du Rhône 1',
      '1204 Genève',
      // 50 EUR at 1 CHF = 1/0.94 = 1.063830 EUR: 47.00 CHF.
      '47,00 CHF',
      'quarante-sept francs suisses',
      '50,00 €',
      '1 CHF = 1,06383 EUR, taux du 13 mars 2026',
      'du 1er janvier au 31 décembre 2026',
      'sans contrepartie',
      'Fait à Thonon-les-Bains, le',
      'Claire Dubois',
    ]) {
      expect(page, text).toContain(text);
    }
    expect(page).not.toContain('Cerfa');
    expect(page).not.toContain('CGI');
    expect(await pdfImageCounts(pdf)).toEqual([2]);

    const link = await readQrCode(pdf);
    const [receipt] = (await register(api)).models;
    expect(receipt).toMatchObject({ number: 1, amount: 47, currency: 'CHF' });
    expect(link).toBe(`${testConfig().publicUrl}/verify/receipt/1?h=${receipt?.hash.slice(0, 16)}`);
    const url = new URL(link ?? '');
    const check = await ctx.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(check.statusCode).toBe(200);
    expect(check.body).toContain('n° 1 : valable');
    expect(check.body).toContain('47,00 CHF');
    expect(check.body).toContain('H. M.');
  });

  it('gives donors elsewhere the document chosen in the settings', async () => {
    const api = await asAdministrator(ctx);
    await configure(api, { receiptForOtherCountries: 'attestation' });
    const lea = await donor({ lastName: 'Peeters', countryId: BELGIUM, currencyId: FRANC });
    const gift = await give(api, lea.id, 20, '2026-04-01');
    expect((await pdfPages(await pdfOf(api, `/api/donations/receipt/${gift.id}`)))[0]).toContain(
      'Attestation de don',
    );

    await configure(api, { receiptForOtherCountries: 'cerfa' });
    const other = await donor({ lastName: 'Janssens', countryId: BELGIUM, currencyId: EURO });
    const euros = await give(api, other.id, 20, '2026-04-01');
    expect((await pdfPages(await pdfOf(api, `/api/donations/receipt/${euros.id}`)))[0]).toContain(
      'Cerfa n° 11580*05',
    );
  });

  it('refuses with a 409 naming the day and the currency when no rate is known, and issues nothing', async () => {
    const api = await asAdministrator(ctx);
    await configure(api);
    const zoe = await donor({ lastName: 'Martin', countryId: FRANCE, currencyId: FRANC });
    const gift = await give(api, zoe.id, 30, '2026-05-04');
    const refused = await api.send('GET', `/api/donations/receipt/${gift.id}`);
    expect(refused.status).toBe(409);
    const problem = JSON.parse(refused.raw.toString());
    expect(problem.code).toBe('exchange_rates.missing');
    expect(problem.detail).toContain('CHF on 2026-05-04');
    expect((await register(api)).count).toBe(0);
    // Once the rate is there, the receipt is issued with the first number.
    await api.expectStatus(201, 'POST', '/api/exchange-rates', {
      date: '2026-05-04',
      currency: 'CHF',
      rate: 0.95,
    });
    await pdfOf(api, `/api/donations/receipt/${gift.id}`);
    expect((await register(api)).models.map((receipt) => [receipt.number, receipt.amount])).toEqual([
      [1, 31.58],
    ]);
  });

  it('chains the conversion into the hash: altering a rate breaks the register where it was altered', async () => {
    const api = await asAdministrator(ctx);
    await configure(api);
    await rates(api);
    const zoe = await donor({ lastName: 'Martin', countryId: FRANCE, currencyId: FRANC });
    const hans = await donor({ lastName: 'Müller', countryId: SWITZERLAND, currencyId: FRANC });
    await pdfOf(api, `/api/donations/receipt/${(await give(api, zoe.id, 47, '2026-03-13')).id}`);
    await pdfOf(api, `/api/donations/receipt/${(await give(api, hans.id, 10, '2026-03-13')).id}`);
    const verify = () => api.expectStatus<ReceiptChainCheck>(200, 'GET', '/api/receipts/verify');
    expect(await verify()).toEqual({ ok: true, checked: 2 });
    const db = ctx.database.db;
    const [stored] = await queryRows<{ document: string; lines: unknown }>(
      db,
      sql`select document, lines from receipts where number = 1`,
    );
    expect(stored).toEqual({
      document: 'cerfa',
      lines: [
        {
          donationId: expect.any(Number),
          date: '2026-03-13',
          amount: '50.00',
          original: { amount: '47.00', currency: 'CHF', rate: '0.94', rateDate: '2026-03-13' },
        },
      ],
    });
    await db.execute(sql`alter table receipts disable trigger receipts_kept`);
    try {
      await db.execute(
        sql`update receipts set lines = jsonb_set(lines, '{0,original,rate}', '"0.95"') where number = 1`,
      );
      expect(await verify()).toMatchObject({ ok: false, firstBreak: { number: 1 } });
      await db.execute(
        sql`update receipts set lines = jsonb_set(lines, '{0,original,rate}', '"0.94"') where number = 1`,
      );
      expect(await verify()).toEqual({ ok: true, checked: 2 });
      await db.execute(sql`update receipts set document = 'cerfa' where number = 2`);
      expect(await verify()).toMatchObject({ ok: false, checked: 1, firstBreak: { number: 2 } });
    } finally {
      await db.execute(sql`alter table receipts enable trigger receipts_kept`);
    }
  });
});
