import { DEFAULT_EMAIL_TEMPLATES } from '@back-office/contract/email-templates';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { queryRows } from '../../db/client.ts';
import { createSettingsRepository } from './settings.repository.ts';
import { createSettingsService } from './settings.service.ts';

const ctx = useTestApp();

const PNG_1x1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const settings = {
  organisationName: 'Les Amis du Léman',
  address: '12 rue du Lac\n74200 Thonon-les-Bains',
  emailSenderName: 'Les Amis du Léman',
  emailSenderAddress: 'contact@amis-leman.org',
  sirenOrRna: 'W741000000',
  sepaCreditorId: 'FR12ZZZ123456',
  signatoryName: 'Claire Dubois',
  signatoryTitle: 'Trésorière',
  organisationPurpose: 'Protection du lac',
  receiptStatement:
    'Reçu au titre des dons à certains organismes d’intérêt général (articles 200 et 238 bis du CGI).',
  invoiceFooter: 'Association loi 1901 — non assujettie à la TVA',
  paymentTermsText: 'Paiement à réception.',
  logo: PNG_1x1,
};

/**
 * What the API answers for `settings`, which leaves the email texts, the retention, the receipt for
 * other countries, the structured address, the signature image and the type of organisation out:
 * their defaults.
 */
const withDefaultTexts = {
  ...settings,
  ...DEFAULT_EMAIL_TEMPLATES,
  documentRetentionYears: 10,
  inactivityReportYears: 3,
  receiptForOtherCountries: 'cerfa',
  addressStreet: '',
  addressBuildingNumber: '',
  addressPostcode: '',
  addressTown: '',
  addressCountry: null,
  signatureImage: null,
  organisationType: 'general-interest',
  organisationTypeDetail: '',
  sepaPreNotificationDays: 14,
  sepaFirstAsRecurring: false,
  sepaCreditorIban: '',
  sepaCreditorBic: '',
  bankAccounts: [],
  epcQrCode: false,
  reminderIntervalDays: 14,
};

describe('organisation settings', () => {
  it('keep the document retention in whole years from 1 to 50, unchanged when left out', async () => {
    const admin = bearer((await login(ctx)).id_token);
    const put = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload });
    expect((await put({ ...settings, documentRetentionYears: 12 })).json()).toMatchObject({
      documentRetentionYears: 12,
    });
    expect((await put(settings)).json()).toMatchObject({ documentRetentionYears: 12 });
    for (const bad of [0, 51, 2.5, '10']) {
      const refused = await put({ ...settings, documentRetentionYears: bad });
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json().errors).toEqual([expect.objectContaining({ path: 'documentRetentionYears' })]);
    }
  });

  it('start empty, are saved by an Administrator and read by any User', async () => {
    const admin = bearer((await login(ctx)).id_token);
    const empty = await ctx.app.inject({ url: '/api/settings', headers: admin });
    expect(empty.json()).toMatchObject({ organisationName: '', logo: null });

    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: settings,
    });
    expect(saved.statusCode).toBe(200);
    // The logo comes back re-encoded (see settings-logo.routes.test.ts).
    const stored = { ...withDefaultTexts, logo: expect.stringMatching(/^data:image\/png;base64,/) };
    expect(saved.json()).toEqual(stored);

    const { tokens } = await createSignedInUser(ctx);
    const read = await ctx.app.inject({ url: '/api/settings', headers: bearer(tokens.id_token) });
    expect(read.json()).toEqual(stored);
    const write = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(tokens.id_token),
      payload: settings,
    });
    expect(write.statusCode).toBe(403);
  });

  it.each([
    ['a logo that is not an image', { logo: 'data:text/html;base64,PGgxPg==' }, 'logo'],
    ['a PNG label on other bytes', { logo: 'data:image/png;base64,SGVsbG8gd29ybGQ=' }, 'logo'],
    [
      'a PNG whose compressed pixels are damaged',
      {
        logo: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVSHJWNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      },
      'logo',
    ],
    ['a logo over 1 MB', { logo: `data:image/png;base64,${'A'.repeat(1_500_000)}` }, 'logo'],
    ['a malformed sender address', { emailSenderAddress: 'not-an-email' }, 'emailSenderAddress'],
  ])('refuses %s with a 400 naming the field', async (_label, change, path) => {
    const admin = bearer((await login(ctx)).id_token);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...settings, ...change },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].path).toBe(path);
    expect((await ctx.app.inject({ url: '/api/settings', headers: admin })).json().organisationName).toBe('');
  });

  it('keeps the returned-brochure email texts, falls back to the French defaults when empty, and keeps them when a save leaves them out', async () => {
    const admin = bearer((await login(ctx)).id_token);
    const put = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload });
    const custom = {
      brochureEmailSubject: 'Votre adresse',
      brochureEmailText: 'Bonjour {firstName}, écrivez-nous.',
    };
    expect((await put({ ...settings, ...custom })).json()).toMatchObject(custom);
    // A screen that does not know these fields yet leaves them as they are.
    expect((await put({ ...settings, organisationName: 'Autre nom' })).json()).toMatchObject({
      organisationName: 'Autre nom',
      ...custom,
    });
    const emptied = (await put({ ...settings, brochureEmailSubject: '', brochureEmailText: ' ' })).json();
    expect(emptied.brochureEmailSubject).toBe('Brochure retournée');
    expect(emptied.brochureEmailText).toContain('adresse postale actuelle');
    const tooLong = await put({ ...settings, brochureEmailSubject: 'x'.repeat(201) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors[0].path).toBe('brochureEmailSubject');
  });

  it('refuses an unknown placeholder with a 400 naming the field and the placeholder', async () => {
    const admin = bearer((await login(ctx)).id_token);
    const put = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload });
    const refused = await put({ ...settings, annualReceiptEmailText: 'Bonjour {prenom}, reçu {year}.' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      {
        path: 'annualReceiptEmailText',
        message:
          'Unknown placeholder {prenom}: use {title}, {firstName}, {lastName}, {organisationName}, {signatoryName}, {signatoryTitle}, {year}.',
      },
    ]);
    // {receiptNumber} belongs to the single receipt's email only.
    const wrongTemplate = await put({ ...settings, annualReceiptEmailSubject: 'Reçu {receiptNumber}' });
    expect(wrongTemplate.json().errors[0]).toMatchObject({
      path: 'annualReceiptEmailSubject',
      message: expect.stringContaining('{receiptNumber}'),
    });
    const noLink = await put({ ...settings, bulkEmailFooter: 'Merci, {organisationName}.' });
    expect(noLink.statusCode).toBe(400);
    expect(noLink.json().errors[0]).toEqual({
      path: 'bulkEmailFooter',
      message: 'The footer must contain {unsubscribeLink}.',
    });
    const accepted = await put({ ...settings, receiptEmailSubject: 'Votre reçu n° {receiptNumber}' });
    expect(accepted.json().receiptEmailSubject).toBe('Votre reçu n° {receiptNumber}');
  });

  it('stores a template equal to its default as the default (Restore default follows later changes)', async () => {
    const admin = bearer((await login(ctx)).id_token);
    await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...settings, receiptEmailText: DEFAULT_EMAIL_TEMPLATES.receiptEmailText },
    });
    const [row] = await queryRows<{ receipt_email_text: string }>(
      ctx.database.db,
      sql`select receipt_email_text from organisation_settings`,
    );
    expect(row?.receipt_email_text).toBe('');
  });

  it('keep the receipt for other countries, the structured address, the signature image and the type of organisation, unchanged when left out', async () => {
    const admin = bearer((await login(ctx)).id_token);
    const put = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload });
    const organisationAddress = {
      receiptForOtherCountries: 'attestation',
      addressStreet: 'Rue du Rhône',
      addressBuildingNumber: '12bis',
      addressPostcode: '1204',
      addressTown: 'Genève',
      addressCountry: 'CH',
      organisationType: 'public-utility',
      organisationTypeDetail: 'Décret du 3 mars 1985, JO du 10 mars 1985',
      sepaPreNotificationDays: 5,
      sepaFirstAsRecurring: true,
      sepaCreditorBic: 'BNPAFRPP',
    };
    const saved = await put({
      ...settings,
      ...organisationAddress,
      sepaCreditorIban: 'fr76 3000 6000 0112 3456 7890 189',
      signatureImage: PNG_1x1,
      bankAccounts: [
        { currency: 'CHF', iban: 'ch44 3199 9123 0008 8901 2' },
        { currency: 'EUR', iban: 'FR76 3000 6000 0112 3456 7890 189' },
      ],
      epcQrCode: true,
    });
    // The IBANs are kept without spaces, in capitals.
    expect(saved.json()).toMatchObject({
      sepaCreditorIban: 'FR7630006000011234567890189',
      bankAccounts: [
        { currency: 'CHF', iban: 'CH4431999123000889012' },
        { currency: 'EUR', iban: 'FR7630006000011234567890189' },
      ],
      epcQrCode: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = {
      ...organisationAddress,
      // Re-encoded, as the logo is.
      signatureImage: expect.stringMatching(/^data:image\/png;base64,/),
    };
    expect(saved.json()).toMatchObject(stored);
    expect((await ctx.app.inject({ url: '/api/settings', headers: admin })).json()).toMatchObject(stored);
    const [row] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select receipt_for_other_countries, address_street, address_building_number, address_postcode,
                 address_town, address_country, signature_image from organisation_settings`,
    );
    expect(row).toMatchObject({
      receipt_for_other_countries: 'attestation',
      address_street: 'Rue du Rhône',
      address_building_number: '12bis',
      address_postcode: '1204',
      address_town: 'Genève',
      address_country: 'CH',
      signature_image: expect.stringMatching(/^data:image\/png;base64,/),
    });

    // A screen that does not know these fields yet leaves them as they are.
    expect((await put({ ...settings, organisationName: 'Autre nom' })).json()).toMatchObject(stored);
    // Trimmed; the country and the signature image can be removed.
    expect(
      (
        await put({
          ...settings,
          receiptForOtherCountries: 'cerfa',
          addressStreet: '  Route de Ferney ',
          addressCountry: null,
          signatureImage: null,
        })
      ).json(),
    ).toMatchObject({
      receiptForOtherCountries: 'cerfa',
      addressStreet: 'Route de Ferney',
      addressCountry: null,
      signatureImage: null,
    });
  });

  it.each([
    [
      'a receipt kind other than cerfa or attestation',
      { receiptForOtherCountries: 'recu' },
      'receiptForOtherCountries',
    ],
    [
      'an IBAN with a wrong check digit',
      { sepaCreditorIban: 'FR7630006000011234567890188' },
      'sepaCreditorIban',
    ],
    ['a BIC of 9 characters', { sepaCreditorBic: 'BNPAFRPPX' }, 'sepaCreditorBic'],
    [
      'an invoice account with a wrong check digit',
      { bankAccounts: [{ currency: 'CHF', iban: 'CH4431999123000889013' }] },
      'bankAccounts.0.iban',
    ],
    [
      'an invoice account in dollars',
      { bankAccounts: [{ currency: 'USD', iban: 'CH4431999123000889012' }] },
      'bankAccounts.0.currency',
    ],
    [
      'two invoice accounts in francs',
      {
        bankAccounts: [
          { currency: 'CHF', iban: 'CH4431999123000889012' },
          { currency: 'CHF', iban: 'CH9300762011623852957' },
        ],
      },
      'bankAccounts.1.currency',
    ],
    ['an EPC QR code setting given as text', { epcQrCode: 'yes' }, 'epcQrCode'],
    ['reminders 0 days apart', { reminderIntervalDays: 0 }, 'reminderIntervalDays'],
    ['a reminder placeholder it does not know', { reminderEmailText: 'Hello {year}' }, 'reminderEmailText'],
    ['a pre-notification of 1 day', { sepaPreNotificationDays: 1 }, 'sepaPreNotificationDays'],
    ['a pre-notification of 2.5 days', { sepaPreNotificationDays: 2.5 }, 'sepaPreNotificationDays'],
    ['first collections as recurring given as text', { sepaFirstAsRecurring: 'yes' }, 'sepaFirstAsRecurring'],
    ['an unknown type of organisation', { organisationType: 'club' }, 'organisationType'],
    [
      'a type of organisation detail of 201 characters',
      { organisationTypeDetail: 'd'.repeat(201) },
      'organisationTypeDetail',
    ],
    ['a street of 71 characters', { addressStreet: 'r'.repeat(71) }, 'addressStreet'],
    [
      'a building number of 17 characters',
      { addressBuildingNumber: '1'.repeat(17) },
      'addressBuildingNumber',
    ],
    ['a postcode of 17 characters', { addressPostcode: '7'.repeat(17) }, 'addressPostcode'],
    ['a town of 36 characters', { addressTown: 't'.repeat(36) }, 'addressTown'],
    ['a NUL character in the town', { addressTown: 'Gen\u0000ève' }, 'addressTown'],
    ['a country in lower case', { addressCountry: 'ch' }, 'addressCountry'],
    ['a country of three letters', { addressCountry: 'CHE' }, 'addressCountry'],
    ['an unknown country code', { addressCountry: 'ZZ' }, 'addressCountry'],
    [
      'a signature that is not an image',
      { signatureImage: 'data:text/html;base64,PGgxPg==' },
      'signatureImage',
    ],
    [
      'a PNG label on other bytes',
      { signatureImage: 'data:image/png;base64,SGVsbG8gd29ybGQ=' },
      'signatureImage',
    ],
    [
      'a signature over 1 MB',
      { signatureImage: `data:image/png;base64,${'A'.repeat(1_500_000)}` },
      'signatureImage',
    ],
  ])('refuse %s with a 400 naming the field, and keep nothing', async (_label, change, path) => {
    const admin = bearer((await login(ctx)).id_token);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...settings, ...change },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors.map((error: { path: string }) => error.path)).toEqual([path]);
    expect((await ctx.app.inject({ url: '/api/settings', headers: admin })).json()).toMatchObject({
      organisationName: '',
      receiptForOtherCountries: 'cerfa',
      addressCountry: null,
      signatureImage: null,
    });
  });

  it('say why a signature image is refused in its own words', async () => {
    const admin = bearer((await login(ctx)).id_token);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...settings, signatureImage: 'data:image/png;base64,SGVsbG8gd29ybGQ=' },
    });
    expect(response.json()).toMatchObject({
      code: 'settings.invalid_signature_image',
      errors: [{ path: 'signatureImage', message: 'The signature image must be a PNG or JPEG image.' }],
    });
  });

  it('give receipts the new fields through the effective settings', async () => {
    const admin = bearer((await login(ctx)).id_token);
    await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...settings, addressTown: 'Annemasse', addressCountry: 'FR' },
    });
    const effective = await createSettingsService({
      db: ctx.database.db,
      repository: createSettingsRepository(),
    }).get();
    expect(effective).toMatchObject({
      receiptForOtherCountries: 'cerfa',
      addressStreet: '',
      addressBuildingNumber: '',
      addressPostcode: '',
      addressTown: 'Annemasse',
      addressCountry: 'FR',
      signatureImage: null,
    });
  });
});
