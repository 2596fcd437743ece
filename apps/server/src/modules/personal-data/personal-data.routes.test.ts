import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { sql } from 'drizzle-orm';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator, type TestApi } from '../../../test/api.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import {
  buildSale,
  buildSubscriber,
  insertDonation,
  insertProduct,
  insertReferenceItem,
  insertSale,
  insertSubscribers,
} from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

const DAY_MS = 86_400_000;

const SETTINGS = {
  organisationName: 'Les Amis du Léman',
  address: '12 rue du Lac\n74200 Thonon-les-Bains',
  emailSenderName: 'Les Amis du Léman',
  emailSenderAddress: 'contact@amis-leman.org',
  sirenOrRna: 'W741000000',
  sepaCreditorId: '',
  signatoryName: 'Claire Dubois',
  signatoryTitle: 'Trésorière',
  organisationPurpose: 'Protection du lac',
  receiptStatement: 'Association d’intérêt général',
  invoiceFooter: '',
  paymentTermsText: '',
  logo: null,
};

/**
 * Zoé Martin of Lyon, tagged, with a gift whose receipt was issued and emailed (the email still queued),
 * a sale whose invoice was issued and a sale whose invoice never was.
 */
async function seedZoe(api: TestApi) {
  await api.expectStatus(200, 'PUT', '/api/settings', SETTINGS);
  await insertReferenceItem(ctx, 'tags', { name: 'Bénévole' });
  const [zoe] = await insertSubscribers(ctx, [
    buildSubscriber({
      title: 'Mme',
      firstName: 'Zoé',
      lastName: 'Martin',
      email: 'zoe.martin@example.org',
      phone: '04 78 00 00 01',
      mobile: '06 00 00 00 01',
      fax: '04 78 00 00 02',
      address1: '3 place Bellecour',
      address2: 'Bâtiment B',
      address3: 'Escalier 2',
      town: 'Lyon',
      postcode: '69002',
      billingAddress: '5 rue de la République, Lyon',
      notes: 'Préfère être appelée le soir.',
      association: 'Amis de Bellecour',
      inactive: true,
      inactiveReason: 'Moved to Genève',
      rum: 'RUM-ZOE-1',
      recommendedBy: 'Marc Durand',
      bank: 'Banque de Lyon',
      iban: 'FR7630006000011234567890189',
      newsletterEmail: 'zoe.news@example.org',
      emailConsentDate: '2024-02-01',
      emailConsentSource: 'Formulaire web',
      onMailChimpList: true,
      paymentMethodId: 1,
      tags: ['Bénévole'],
    }),
  ]);
  if (!zoe) throw new Error('no subscriber');
  const gift = await insertDonation(ctx, zoe.id, {
    amount: 40,
    donationDate: '2025-03-14',
    notes: 'En mémoire de Paul',
  });
  await api.expectStatus(200, 'GET', `/api/donations/email/${gift.id}`);
  const product = await insertProduct(ctx);
  const item = { productId: product.id, quantity: 2, euroUnitPrice: 12.5, swissUnitPrice: 14 };
  const invoiced = await insertSale(ctx, buildSale(zoe.id, [item], { notes: 'Livrer chez la voisine' }));
  await api.expectStatus(200, 'GET', `/api/sales/receipt/${invoiced.id}`);
  const uninvoiced = await insertSale(ctx, buildSale(zoe.id, [{ ...item, quantity: 1 }]));
  await api.expectStatus(201, 'POST', `/api/subscribers/${zoe.id}/mandates`, {
    rum: 'RUM-ZOE-2',
    iban: 'FR7630006000011234567890189',
    bic: 'AGRIFRPP',
    signedOn: '2024-01-10',
    type: 'recurring',
  });
  return { zoe, gift, invoiced, uninvoiced };
}

async function unzip(raw: Buffer) {
  const zip = await JSZip.loadAsync(raw);
  const names = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir);
  const json = async (name: string) => JSON.parse((await zip.file(name)?.async('string')) ?? 'null');
  const bytes = async (name: string) => (await zip.file(name)?.async('nodebuffer')) ?? Buffer.alloc(0);
  return { names, json, bytes };
}

async function auditEvents(api: TestApi) {
  const result = await api.expectStatus<{ models: Array<Record<string, unknown>> }>(
    200,
    'GET',
    '/api/audit?entityType=subscriber',
  );
  return result.models;
}

describe('GET /api/subscribers/{id}/personal-data', () => {
  it('downloads a ZIP of the record, history, donations, sales, receipts and their PDFs, and audits it', async () => {
    const api = await asAdministrator(ctx);
    const { zoe, gift, invoiced, uninvoiced } = await seedZoe(api);
    const record = await api.expectStatus(200, 'GET', `/api/subscribers/${zoe.id}`);
    const history = await api.expectStatus(200, 'GET', `/api/subscribers/${zoe.id}/history`);

    const response = await api.get(`/api/subscribers/${zoe.id}/personal-data`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const today = calendarDay(ctx.clock.now(), DEFAULT_TIME_ZONE);
    expect(response.headers['content-disposition']).toContain(
      `filename="personal-data-${zoe.id}-${today}.zip"`,
    );

    const archive = await unzip(response.raw);
    expect(archive.names.sort()).toEqual([
      'bank-statement-entries.json',
      'donations.json',
      'history.json',
      'invoices/sale-invoice-1.pdf',
      'mandates.json',
      'receipts.json',
      'receipts/receipt-1.pdf',
      'sales.json',
      'subscriber.json',
    ]);
    expect(await archive.json('subscriber.json')).toEqual(record);
    expect(await archive.json('history.json')).toEqual(history);
    expect(await archive.json('mandates.json')).toEqual([
      {
        rum: 'RUM-ZOE-2',
        iban: 'FR7630006000011234567890189',
        bic: 'AGRIFRPP',
        signedOn: '2024-01-10',
        type: 'recurring',
        status: 'active',
        lastCollectedOn: null,
        revokedOn: null,
        revokedReason: null,
      },
    ]);
    expect(await archive.json('donations.json')).toEqual([
      expect.objectContaining({
        id: gift.id,
        donationDate: '2025-03-14',
        amount: 40,
        currencySymbol: '€',
        notes: 'En mémoire de Paul',
        receiptNumber: 1,
      }),
    ]);
    const sales = await archive.json('sales.json');
    expect(sales).toEqual([
      expect.objectContaining({
        id: invoiced.id,
        ref: invoiced.ref,
        fullName: 'Mme Zoé Martin',
        addr1: '1 rue du Lac',
        total: 25,
        invoiceIssuedAt: expect.any(String),
        lines: [
          expect.objectContaining({
            productId: expect.any(Number),
            quantity: 2,
            unitPrice: 12.5,
            lineTotal: 25,
          }),
        ],
      }),
      expect.objectContaining({ id: uninvoiced.id, total: 12.5, invoiceIssuedAt: null }),
    ]);
    expect(await archive.json('receipts.json')).toEqual([
      expect.objectContaining({
        number: 1,
        kind: 'single',
        year: 2025,
        total: 40,
        file: 'receipts/receipt-1.pdf',
      }),
    ]);
    const [receiptPage] = await pdfPages(await archive.bytes('receipts/receipt-1.pdf'));
    expect(receiptPage).toContain('MARTIN');
    expect(receiptPage).toContain('3 place Bellecour');
    const [invoicePage] = await pdfPages(await archive.bytes('invoices/sale-invoice-1.pdf'));
    expect(invoicePage).toContain('Zoé Martin');

    // Nothing was issued by the download: the second sale's invoice is still not issued.
    const [second] = await queryRows<{ issued: boolean }>(
      ctx.database.db,
      sql`select invoice_issued_at is not null as issued from sales where id = ${uninvoiced.id}`,
    );
    expect(second?.issued).toBe(false);

    const [event] = await auditEvents(api);
    expect(event).toMatchObject({
      entityType: 'subscriber',
      entityId: zoe.id,
      entityLabel: `Subscriber ${zoe.id}`,
      action: 'personal_data_exported',
      actor: expect.objectContaining({ email: 'admin@example.org' }),
      after: { receipts: 1, invoices: 1 },
    });
  });

  it('works for a deleted subscriber, answers 404 for an unknown id and 403 to a User', async () => {
    const api = await asAdministrator(ctx);
    const [gone] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Parti' })]);
    await api.expectStatus(204, 'DELETE', `/api/subscribers/${gone?.id}`);
    const response = await api.get(`/api/subscribers/${gone?.id}/personal-data`);
    expect(response.status).toBe(200);
    const archive = await unzip(response.raw);
    expect(await archive.json('subscriber.json')).toMatchObject({ lastName: 'Parti', hidden: true });
    expect(await archive.json('donations.json')).toEqual([]);

    const missing = await api.get('/api/subscribers/999999/personal-data');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'subscribers.not_found' });

    const { tokens } = await createSignedInUser(ctx);
    const user = apiClient(ctx, tokens.id_token);
    expect((await user.get(`/api/subscribers/${gone?.id}/personal-data`)).status).toBe(403);
    expect(
      (await user.post(`/api/subscribers/${gone?.id}/anonymise`, { reason: 'Asked by letter' })).status,
    ).toBe(403);
    expect(await auditEvents(api)).toHaveLength(1);
  });
});

describe('POST /api/subscribers/{id}/anonymise', () => {
  it('erases every identity field, keeps money facts and issued documents, rewrites the history', async () => {
    const api = await asAdministrator(ctx);
    const { zoe, gift, invoiced, uninvoiced } = await seedZoe(api);
    const historyBefore = await api.expectStatus<Array<{ date: string; user: string }>>(
      200,
      'GET',
      `/api/subscribers/${zoe.id}/history`,
    );
    // Two bank statement entries of hers: one assigned to her, one from her mandate's account.
    await ctx.database.db.execute(sql`insert into bank_statement_entries (entry_ref, booking_date, amount,
        currency, direction, debtor_name, debtor_iban, text, status, subscriber_id, imported_by)
      values ('Z-1', '2026-01-05', 20, 'EUR', 'credit', 'Zoé Martin', 'FR7630006000011234567890189',
          'Don de Zoé', 'assigned', ${zoe.id}, 'Test'),
        ('Z-2', '2026-01-06', 5, 'EUR', 'credit', 'Z. Martin', 'FR7630006000011234567890189',
          'Merci', 'unmatched', null, 'Test'),
        ('Z-3', '2026-01-07', 7, 'EUR', 'credit', 'Someone Else', 'DE89370400440532013000',
          'Autre', 'unmatched', null, 'Test')`);

    await api.expectStatus(204, 'POST', `/api/subscribers/${zoe.id}/anonymise`, {
      reason: 'Request by letter of 2 May',
    });
    expect(
      await queryRows(
        ctx.database.db,
        sql`select entry_ref, debtor_name, debtor_iban, text, amount::text as amount
          from bank_statement_entries order by entry_ref`,
      ),
    ).toEqual([
      { entry_ref: 'Z-1', debtor_name: null, debtor_iban: null, text: '', amount: '20.00' },
      { entry_ref: 'Z-2', debtor_name: null, debtor_iban: null, text: '', amount: '5.00' },
      {
        entry_ref: 'Z-3',
        debtor_name: 'Someone Else',
        debtor_iban: 'DE89370400440532013000',
        text: 'Autre',
        amount: '7.00',
      },
    ]);

    // Hidden: no longer found by the screens.
    expect((await api.get(`/api/subscribers/${zoe.id}`)).status).toBe(404);
    const search = await api.expectStatus<{ count: number }>(200, 'GET', '/api/subscribers/?name=Martin');
    expect(search.count).toBe(0);

    const archive = await unzip((await api.get(`/api/subscribers/${zoe.id}/personal-data`)).raw);
    const record = await archive.json('subscriber.json');
    expect(record).toMatchObject({
      id: zoe.id,
      firstName: 'Anonymised',
      lastName: `Subscriber ${zoe.id}`,
      title: '',
      email: '',
      phone: '',
      mobile: '',
      fax: '',
      address1: '',
      address2: '',
      address3: '',
      town: '',
      postcode: '',
      billingAddress: '',
      notes: '',
      association: '',
      inactiveReason: '',
      rum: '',
      recommendedBy: '',
      bank: '',
      iban: '',
      newsletterEmail: '',
      emailConsentDate: null,
      emailConsentSource: '',
      onMailChimpList: false,
      tags: [],
      hidden: true,
      // Facts that name no one stay.
      countryId: 1,
      currencyId: 1,
      paymentMethodId: 1,
    });
    const [folded] = await queryRows<Record<string, string>>(
      ctx.database.db,
      sql`select search_first_name, search_last_name, search_town, search_postcode, search_association
          from subscribers where id = ${zoe.id}`,
    );
    expect(folded).toEqual({
      search_first_name: 'anonymised',
      search_last_name: `subscriber ${zoe.id}`,
      search_town: '',
      search_postcode: '',
      search_association: '',
    });

    // The mandate keeps its reference and date, loses its account, and is revoked.
    expect(await archive.json('mandates.json')).toMatchObject([
      {
        rum: 'RUM-ZOE-2',
        iban: '',
        bic: null,
        signedOn: '2024-01-10',
        status: 'revoked',
        revokedReason: 'Subscriber anonymised',
      },
    ]);

    // History: same dates and users, one line saying why, plus the anonymisation itself.
    const history = await archive.json('history.json');
    const line = 'Personal data anonymised: Request by letter of 2 May.';
    expect(history).toHaveLength(historyBefore.length + 1);
    expect(new Set(history.map((entry: { description: string }) => entry.description))).toEqual(
      new Set([line]),
    );
    expect(
      history.slice(1).map(({ date, user }: { date: string; user: string }) => ({ date, user })),
    ).toEqual(historyBefore.map(({ date, user }) => ({ date, user })));

    // Money facts stay; the gift's notes go; the uninvoiced sale's buyer copies go; the issued invoice stays.
    expect(await archive.json('donations.json')).toEqual([
      expect.objectContaining({
        id: gift.id,
        amount: 40,
        donationDate: '2025-03-14',
        notes: '',
        receiptNumber: 1,
      }),
    ]);
    const sales = await archive.json('sales.json');
    expect(sales[0]).toMatchObject({
      id: invoiced.id,
      fullName: 'Mme Zoé Martin',
      addr1: '1 rue du Lac',
      total: 25,
    });
    expect(sales[1]).toMatchObject({
      id: uninvoiced.id,
      fullName: `Anonymised Subscriber ${zoe.id}`,
      addr1: '',
      town: '',
      postcode: '',
      total: 12.5,
      lines: [expect.objectContaining({ quantity: 1, lineTotal: 12.5 })],
    });
    expect(await archive.json('receipts.json')).toEqual([expect.objectContaining({ number: 1, total: 40 })]);

    // The receipt stays as issued: it still names and addresses the donor.
    const [receiptPage] = await pdfPages(await archive.bytes('receipts/receipt-1.pdf'));
    expect(receiptPage).toContain('MARTIN');
    expect(receiptPage).toContain('3 place Bellecour');
    expect(receiptPage).not.toContain('Anonymised');

    // The queued receipt email is cancelled, and its copy erased.
    const outbox = await queryRows<{
      status: string;
      cancel_reason: string;
      to_address: string;
      attachments: unknown[];
    }>(
      ctx.database.db,
      sql`select status, cancel_reason, to_address, attachments from outbox_messages where subscriber_id = ${zoe.id}`,
    );
    expect(outbox).toEqual([
      { status: 'cancelled', cancel_reason: 'Subscriber anonymised.', to_address: '', attachments: [] },
    ]);
    const tags = await queryRows(
      ctx.database.db,
      sql`select 1 from subscriber_tags where subscriber_id = ${zoe.id}`,
    );
    expect(tags).toEqual([]);

    const events = await auditEvents(api);
    expect(events.find((event) => event.action === 'anonymised')).toMatchObject({
      entityId: zoe.id,
      entityLabel: `Subscriber ${zoe.id}`,
      after: { reason: 'Request by letter of 2 May' },
    });
    expect(JSON.stringify(events)).not.toContain('Martin');
  });

  it('answers 409 the second time, 404 for an unknown id, and 400 naming the reason without writing', async () => {
    const api = await asAdministrator(ctx);
    const [kept, erased] = await insertSubscribers(ctx, [buildSubscriber(), buildSubscriber()]);
    const url = (id: number | undefined) => `/api/subscribers/${id}/anonymise`;

    for (const body of [
      {},
      { reason: '' },
      { reason: '  ab ' },
      { reason: 'x'.repeat(501) },
      { reason: 12 },
    ]) {
      const refused = await api.post<{ code: string; errors: Array<{ path: string }> }>(url(kept?.id), body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(new Set(refused.body.errors.map((error) => error.path))).toEqual(new Set(['reason']));
    }
    expect(await api.expectStatus(200, 'GET', `/api/subscribers/${kept?.id}`)).toMatchObject({
      lastName: kept?.lastName,
    });

    await api.expectStatus(204, 'POST', url(erased?.id), { reason: 'Asked by phone' });
    const again = await api.post<{ code: string }>(url(erased?.id), { reason: 'Asked by phone' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('subscribers.anonymised');
    expect((await api.post(url(999_999), { reason: 'Asked by phone' })).status).toBe(404);
    expect((await auditEvents(api)).filter((event) => event.action === 'anonymised')).toHaveLength(1);
  });
});

describe('personal-data.purge', () => {
  it('removes what kept documents carry of anonymised subscribers once past the retention period', async () => {
    let api = await asAdministrator(ctx);
    const { zoe, gift, invoiced } = await seedZoe(api);
    const [other] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Gardé' })]);
    const otherGift = await insertDonation(ctx, other?.id ?? 0);
    await api.expectStatus(200, 'GET', `/api/donations/receipt/${otherGift.id}`);
    await api.expectStatus(200, 'PUT', '/api/settings', { ...SETTINGS, documentRetentionYears: 2 });
    await api.expectStatus(204, 'POST', `/api/subscribers/${zoe.id}/anonymise`, { reason: 'Asked by email' });

    const receiptText = async (donationId: number) => {
      const response = await api.get(`/api/donations/receipt/${donationId}`);
      return (await pdfPages(response.raw))[0] ?? '';
    };
    const invoicedSale = async () => {
      const [row] = await queryRows<Record<string, string>>(
        ctx.database.db,
        sql`select full_name, addr1, town, postcode, notes, country, total from sales where id = ${invoiced.id}`,
      );
      return row;
    };

    // Within the retention period: the documents stay as issued.
    ctx.clock.advance(2 * 365 * DAY_MS - DAY_MS);
    api = await asAdministrator(ctx); // signed in again: the tokens expired meanwhile
    await ctx.app.jobs.runDue();
    expect(await receiptText(gift.id)).toContain('MARTIN');
    expect(await invoicedSale()).toMatchObject({ full_name: 'Mme Zoé Martin', addr1: '1 rue du Lac' });

    // Past it: the receipt prints the anonymised record, the sale keeps its amounts only.
    ctx.clock.advance(3 * DAY_MS);
    api = await asAdministrator(ctx);
    await ctx.app.jobs.runDue();
    const purged = await receiptText(gift.id);
    expect(purged).not.toContain('MARTIN');
    expect(purged).not.toContain('Bellecour');
    expect(purged).toContain(`SUBSCRIBER ${zoe.id}`);
    expect(await invoicedSale()).toEqual({
      full_name: `Anonymised Subscriber ${zoe.id}`,
      addr1: '',
      town: '',
      postcode: '',
      notes: '',
      country: 'France',
      total: '25.00',
    });
    // Subscribers who were not anonymised keep everything.
    expect(await receiptText(otherGift.id)).toContain('GARDÉ');

    const purges = (await auditEvents(api)).filter((event) => event.action === 'personal_data_purged');
    expect(purges).toEqual([
      expect.objectContaining({ entityId: zoe.id, actor: null, after: { receipts: 1, sales: 1 } }),
    ]);

    // Nothing left to do: the next pass is not even claimed.
    ctx.clock.advance(2 * 3_600_000);
    api = await asAdministrator(ctx);
    await ctx.app.jobs.runDue();
    expect((await auditEvents(api)).filter((event) => event.action === 'personal_data_purged')).toHaveLength(
      1,
    );
  });
});

describe('anonymising after a merge', () => {
  it('forgets the merge kept for an undo: the identity cannot come back through it', async () => {
    const api = await asAdministrator(ctx);
    const [keep, merged] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Gardé' }),
      buildSubscriber({ lastName: 'Fusionné' }),
    ]);
    await api.expectStatus(200, 'POST', '/api/subscribers/merge', { keepId: keep?.id, mergeId: merged?.id });
    await api.expectStatus(204, 'POST', `/api/subscribers/${keep?.id}/anonymise`, {
      reason: 'Demande écrite',
    });
    const kept = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from subscriber_merges where keep_id = ${keep?.id ?? 0}`,
    );
    expect(kept[0]?.n).toBe(0);
    expect((await api.send('POST', `/api/subscribers/merge/${merged?.id}/undo`)).status).toBe(404);
  });
});
