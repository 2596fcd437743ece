import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import {
  isValidMandateReference,
  mandateLetterFilename,
  mandateReferenceCandidate,
} from './subscriber-rum.service.ts';

const ctx = useTestApp();

/** A 96 × 32 chequered PNG. */
const LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAGAAAAAgCAIAAABiouoDAAAAXElEQVR42u3YQQ0AIAwDwIlABJpQhxzkIAEDCwK2S/rs615NY6yd5p6Zpls/AAECBAgQIEBlgUD8+4AAAQIECBCgukAgLGlAgAABAgTIH2QoWtKAAAECBAhQq/4DZ9uVAHX3h4wAAAAASUVORK5CYII=';

const SETTINGS = {
  organisationName: 'Les Amis du Léman',
  address: '12 rue du Lac\n74200 Thonon-les-Bains\nFrance',
  emailSenderName: 'Les Amis du Léman',
  emailSenderAddress: 'contact@amis-leman.org',
  sirenOrRna: 'W741000000',
  sepaCreditorId: 'FR12ZZZ123456',
  signatoryName: 'Claire Dubois',
  signatoryTitle: 'Trésorière',
  organisationPurpose: '',
  receiptStatement: '',
  invoiceFooter: '',
  paymentTermsText: '',
  logo: LOGO,
};

async function api(method: 'GET' | 'PUT' | 'PATCH', url: string, payload?: object) {
  const headers = bearer((await login(ctx)).id_token);
  return ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function saveSettings(overrides: object = {}) {
  const response = await api('PUT', '/api/settings', { ...SETTINGS, ...overrides });
  if (response.statusCode !== 200) throw new Error(`settings refused: ${response.body}`);
}

/** The pages of a PDF and the text of each, read back with pdfjs-dist. */
async function pdfText(bytes: Buffer) {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await document.destroy();
  return pages;
}

describe('GET /api/subscribers/{id}/rum', () => {
  it('makes a one-page mandate form, gives the subscriber a reference once and reuses it, with history', async () => {
    await saveSettings();
    const [saved] = await insertSubscribers(ctx, [
      buildSubscriber({
        title: 'M.',
        firstName: 'Jérôme',
        lastName: "L'Héritier",
        address1: '5 chemin des Vignes',
        postcode: '1260',
        town: 'Nyon',
        countryId: 2,
        currencyId: 2,
        iban: 'CH93 0076 2011 6238 5295 7',
        rum: '',
      }),
    ]);
    const first = await api('GET', `/api/subscribers/${saved?.id}/rum`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-disposition']).toContain(
      `filename="L'Héritier-rum-letter.pdf"`.replace('é', '_'),
    );
    expect(first.headers['content-disposition']).toContain("filename*=UTF-8''L'H%C3%A9ritier-rum-letter.pdf");

    const record = (await api('GET', `/api/subscribers/${saved?.id}`)).json();
    expect(record.rum).toMatch(/^RUM-\d{6}-\d{8}$/);
    expect(isValidMandateReference(record.rum)).toBe(true);
    expect(record.version).toBe(2);

    const pages = await pdfText(first.rawPayload);
    expect(pages).toHaveLength(1);
    const text = pages[0] ?? '';
    for (const expected of [
      'Mandat de prélèvement SEPA',
      'Les Amis du Léman',
      'FR12ZZZ123456',
      '74200 Thonon-les-Bains',
      "M. Jérôme L'Héritier",
      '5 chemin des Vignes',
      'Nyon',
      'Suisse',
      'CH93 0076 2011 6238 5295 7',
      record.rum,
      'Paiement récurrent / répétitif',
      'En signant ce formulaire de mandat, vous autorisez (A) Les Amis du Léman à envoyer des instructions à votre banque',
      'dans les 8 semaines suivant la date de débit de votre compte',
      'Vos droits concernant le présent mandat sont expliqués dans un document que vous pouvez obtenir auprès de votre banque.',
      'Signé à',
      'Signature',
    ]) {
      expect(text).toContain(expected);
    }

    const second = await api('GET', `/api/subscribers/${saved?.id}/rum`);
    expect(second.statusCode).toBe(200);
    expect((await pdfText(second.rawPayload))[0]).toContain(record.rum);
    const again = (await api('GET', `/api/subscribers/${saved?.id}`)).json();
    expect(again).toMatchObject({ rum: record.rum, version: 2 });

    const history = (await api('GET', `/api/subscribers/${saved?.id}/history`)).json();
    expect(history.slice(0, 2).map((entry: { description: string }) => entry.description)).toEqual([
      `RUM letter generated (mandate reference ${record.rum}).`,
      `RUM letter generated (mandate reference ${record.rum}).`,
    ]);
  });

  it('keeps a reference typed by staff and leaves unknown bank details empty', async () => {
    await saveSettings({ logo: null });
    const [saved] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Dupont', rum: 'MANDAT 2019/42', iban: '', bank: 'BNPAFRPPXXX' }),
    ]);
    const response = await api('GET', `/api/subscribers/${saved?.id}/rum`);
    expect(response.statusCode).toBe(200);
    const text = (await pdfText(response.rawPayload))[0] ?? '';
    expect(text).toContain('MANDAT 2019/42');
    expect(text).toContain('BNPAFRPPXXX');
    expect((await api('GET', `/api/subscribers/${saved?.id}`)).json()).toMatchObject({
      rum: 'MANDAT 2019/42',
      version: 1,
    });
  });

  it('refuses while the settings lack the organisation name or creditor identifier, and for unknown subscribers', async () => {
    const [saved] = await insertSubscribers(ctx, [buildSubscriber()]);
    const refused = await api('GET', `/api/subscribers/${saved?.id}/rum`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('subscribers.mandate_settings_missing');
    expect(refused.json().errors.map((error: { path: string }) => error.path)).toEqual([
      'organisationName',
      'sepaCreditorId',
    ]);
    expect((await api('GET', `/api/subscribers/${saved?.id}`)).json().rum).toBe('');

    await saveSettings();
    expect((await api('GET', '/api/subscribers/999999/rum')).statusCode).toBe(404);
    expect((await api('GET', '/api/subscribers/abc/rum')).statusCode).toBe(400);
  });

  it('is open to any signed-in user, not to anonymous callers', async () => {
    await saveSettings();
    const [saved] = await insertSubscribers(ctx, [buildSubscriber()]);
    expect((await ctx.app.inject({ url: `/api/subscribers/${saved?.id}/rum` })).statusCode).toBe(401);
    const { tokens } = await createSignedInUser(ctx);
    const response = await ctx.app.inject({
      url: `/api/subscribers/${saved?.id}/rum`,
      headers: bearer(tokens.id_token),
    });
    expect(response.statusCode).toBe(200);
    const [latest] = (await api('GET', `/api/subscribers/${saved?.id}/history`)).json();
    expect(latest.user).toBe('Some Body');
  });
});

describe('mandate references', () => {
  it('are at most 35 characters of the SEPA set, unique per subscriber and day', () => {
    const day = new Date('2026-05-21T22:30:00Z'); // already the 22nd in Paris
    expect(mandateReferenceCandidate(42, day)).toBe('RUM-000042-20260522');
    expect(mandateReferenceCandidate(2_147_483_647, day, 12)).toBe('RUM-2147483647-20260522-12');
    expect(mandateReferenceCandidate(2_147_483_647, day, 12).length).toBeLessThanOrEqual(35);
    expect(isValidMandateReference('RUM-000042-20260522')).toBe(true);
    expect(isValidMandateReference('a//b')).toBe(false);
    expect(isValidMandateReference('/abc')).toBe(false);
    expect(isValidMandateReference('é')).toBe(false);
    expect(isValidMandateReference('x'.repeat(36))).toBe(false);
  });

  it('name the file after the last name, without characters file systems refuse', () => {
    expect(mandateLetterFilename('Dupont')).toBe('Dupont-rum-letter.pdf');
    expect(mandateLetterFilename('Le Gall / Martin')).toBe('Le-Gall-Martin-rum-letter.pdf');
    expect(mandateLetterFilename('  ')).toBe('subscriber-rum-letter.pdf');
  });
});
