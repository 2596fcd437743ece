import { DEFAULT_EMAIL_TEMPLATES } from '@back-office/contract/email-templates';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { queryRows } from '../../db/client.ts';

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

/** What the API answers for `settings`, which leaves the email texts and the retention out: their defaults. */
const withDefaultTexts = {
  ...settings,
  ...DEFAULT_EMAIL_TEMPLATES,
  documentRetentionYears: 10,
  inactivityReportYears: 3,
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
});
