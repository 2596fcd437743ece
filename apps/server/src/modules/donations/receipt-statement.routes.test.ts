import type { ReceiptRegister, ReceiptStatement } from '@back-office/contract/receipts';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator, type TestApi } from '../../../test/api.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';

const ctx = useTestApp();

/** Moves the test clock to `iso` (receipts are issued at the clock's time). */
function setClock(iso: string) {
  ctx.clock.advance(new Date(iso).getTime() - ctx.clock.now().getTime());
}

/**
 * Signs in at `iso` and issues, for a new French donor, the receipt of one gift of `amount` € made on
 * `donationDate`. Resolves with the receipt's number and the Administrator's client.
 */
async function issueAt(iso: string, amount: number, donationDate: string) {
  setClock(iso);
  const api = await asAdministrator(ctx);
  const [donor] = await insertSubscribers(ctx, [buildSubscriber({ currencyId: 1, countryId: 1 })]);
  if (!donor) throw new Error('no donor');
  const donation = await api.expectStatus<{ id: number }>(201, 'POST', '/api/donations', {
    subid: donor.id,
    amount,
    donationDate,
  });
  await api.expectStatus(200, 'GET', `/api/donations/receipt/${donation.id}`);
  const register = await api.expectStatus<ReceiptRegister>(200, 'GET', '/api/receipts?listlength=500');
  const receipt = register.models.find((model) => model.subscriberId === donor.id);
  if (!receipt) throw new Error('no receipt issued');
  return { number: receipt.number, api };
}

/** Changes a receipt behind the application (its guard switched off): a receipt of an older kind. */
async function alterReceipt(number: number, changes: SQL) {
  const db = ctx.database.db;
  await db.execute(sql`alter table receipts disable trigger receipts_kept`);
  try {
    await db.execute(sql`update receipts set ${changes} where number = ${number}`);
  } finally {
    await db.execute(sql`alter table receipts enable trigger receipts_kept`);
  }
}

const statementOf = (api: TestApi, year: number) =>
  api.expectStatus<ReceiptStatement>(200, 'GET', `/api/receipts/annual-statement?year=${year}`);

const EMPTY = (year: number): ReceiptStatement => ({
  year,
  receiptCount: 0,
  totalAmount: 0,
  currency: 'EUR',
  byType: [],
});

describe('the annual statement of receipts (CGI art. 222 bis)', () => {
  it('totals the issued receipts as the register does: cancelled ones left out, their replacements in', async () => {
    const first = await issueAt('2025-03-10T09:00:00Z', 40, '2025-03-01');
    const second = await issueAt('2025-04-10T09:00:00Z', 15.5, '2025-04-02');
    const third = await issueAt('2025-05-10T09:00:00Z', 100, '2025-05-03');
    const api = third.api;
    await api.expectStatus(200, 'POST', `/api/receipts/${first.number}/cancel`, { reason: 'Don remboursé' });
    await api.expectStatus(201, 'POST', `/api/receipts/${third.number}/replace`, {
      reason: 'Adresse corrigée',
    });

    const statement = await statementOf(api, 2025);
    expect(statement).toEqual({
      year: 2025,
      receiptCount: 2,
      totalAmount: 115.5,
      currency: 'EUR',
      byType: [{ type: '200', count: 2, amount: 115.5 }],
    });
    const register = await api.expectStatus<ReceiptRegister>(
      200,
      'GET',
      '/api/receipts?year=2025&status=issued&listlength=500',
    );
    expect(register.models.map((receipt) => receipt.number)).toEqual([second.number, third.number + 1]);
    expect(statement.receiptCount).toBe(register.count);
    expect(statement.totalAmount).toBe(register.models.reduce((sum, receipt) => sum + receipt.amount, 0));
    expect(await statementOf(api, 2024)).toEqual(EMPTY(2024));
  });

  it('counts a receipt in the year of its issue day in the organisation’s time zone (Paris)', async () => {
    // 31 December 2025, 23:30 in Paris: still 2025.
    await issueAt('2025-12-31T22:30:00Z', 30, '2025-12-20');
    // 1 January 2026, 00:30 in Paris (31 December 23:30 UTC): 2026, although its gift is of 2025.
    const { api } = await issueAt('2025-12-31T23:30:00Z', 50, '2025-12-21');
    expect(await statementOf(api, 2025)).toMatchObject({ receiptCount: 1, totalAmount: 30 });
    expect(await statementOf(api, 2026)).toMatchObject({
      receiptCount: 1,
      totalAmount: 50,
      byType: [{ type: '200', count: 1, amount: 50 }],
    });
  });

  it('leaves the Swiss attestations out, and converts a receipt made out in francs at the rate of its issue day', async () => {
    const euros = await issueAt('2025-06-01T10:00:00Z', 25, '2025-05-01');
    const swiss = await issueAt('2025-06-02T10:00:00Z', 80, '2025-05-02');
    await alterReceipt(swiss.number, sql`document = 'attestation', currency_id = 2`);
    // Issued on 1 January 2026 at 00:30 in Paris: its rate is that day's, not 31 December's (UTC).
    const francs = await issueAt('2025-12-31T23:30:00Z', 110, '2025-12-01');
    await alterReceipt(francs.number, sql`currency_id = 2`);
    const api = francs.api;
    expect(await statementOf(api, 2025)).toMatchObject({ receiptCount: 1, totalAmount: 25 });
    expect(euros.number).toBeLessThan(swiss.number);

    const missing = await api.send<{ code: string; detail: string }>(
      'GET',
      '/api/receipts/annual-statement?year=2026',
    );
    expect(missing.status).toBe(409);
    expect(missing.body.code).toBe('exchange_rates.missing');
    expect(missing.body.detail).toContain('CHF on 2026-01-01');

    await api.expectStatus(201, 'POST', '/api/exchange-rates', {
      date: '2026-01-01',
      currency: 'CHF',
      rate: 0.94,
    });
    // 110 CHF / 0.94 = 117.0212… €: 117.02 €.
    expect(await statementOf(api, 2026)).toEqual({
      year: 2026,
      receiptCount: 1,
      totalAmount: 117.02,
      currency: 'EUR',
      byType: [{ type: '200', count: 1, amount: 117.02 }],
    });
  });

  it('answers 409 naming the receipt whose currency has no ISO 4217 code to find its rate by', async () => {
    const { number, api } = await issueAt('2025-06-01T10:00:00Z', 25, '2025-05-01');
    await ctx.database.db.execute(sql`insert into currencies (name, symbol) values ('Vieux franc', 'FF')`);
    await alterReceipt(number, sql`currency_id = (select id from currencies where name = 'Vieux franc')`);
    const answer = await api.send<{ code: string; detail: string }>(
      'GET',
      '/api/receipts/annual-statement?year=2025',
    );
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('receipts.statement_currency_unknown');
    expect(answer.body.detail).toContain(`Receipt n° ${number} is made out in Vieux franc`);
  });

  it('prints the statement as a one-page PDF, and exports it as CSV', async () => {
    setClock('2026-02-03T10:00:00Z');
    const admin = await asAdministrator(ctx);
    await admin.expectStatus(200, 'PUT', '/api/settings', {
      organisationName: 'Les Amis du Léman',
      address: '12 rue du Lac\n74200 Thonon-les-Bains',
      emailSenderName: '',
      emailSenderAddress: '',
      sirenOrRna: 'W741000000',
      sepaCreditorId: '',
      signatoryName: 'Claire Dubois',
      signatoryTitle: 'Trésorière',
      organisationPurpose: '',
      receiptStatement: '',
      invoiceFooter: '',
      paymentTermsText: '',
      logo: null,
      addressTown: 'Thonon-les-Bains',
    });
    await issueAt('2025-03-10T09:00:00Z', 1200, '2025-03-01');
    await issueAt('2025-04-10T09:00:00Z', 34.5, '2025-04-02');
    setClock('2026-02-03T10:00:00Z');
    const api = await asAdministrator(ctx);

    const pdf = await api.send('GET', '/api/receipts/annual-statement/pdf?year=2025');
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('receipts-annual-statement-2025.pdf');
    const pages = await pdfPages(pdf.raw);
    expect(pages).toHaveLength(1);
    // French formats use a narrow no-break space between thousands.
    const text = (pages[0] ?? '').replace(/\s+/g, ' ');
    for (const expected of [
      'État annuel des reçus fiscaux délivrés — 2025',
      'Article 222 bis du code général des impôts',
      'Les Amis du Léman',
      'N° SIREN ou RNA : W741000000',
      '74200 Thonon-les-Bains',
      'Nombre de reçus délivrés 2',
      'Montant total des dons mentionnés sur ces reçus 1 234,50 €',
      'Article 200 (dons des particuliers) 2 1 234,50 €',
      'Fait à Thonon-les-Bains, le 3 février 2026',
      'Claire Dubois',
    ]) {
      expect(text).toContain(expected);
    }

    const csv = await api.send('GET', '/api/receipts/annual-statement/export?year=2025&dialect=excel-fr');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain('receipts-annual-statement-2025.csv');
    expect(csv.raw.toString('utf8')).toBe(
      '\ufeffyear;type;count;amount;currency\n2025;200;2;1234,50;EUR\n2025;total;2;1234,50;EUR\n',
    );
    const empty = await api.send('GET', '/api/receipts/annual-statement/export?year=2024');
    expect(empty.raw.toString('utf8')).toBe('\ufeffyear,type,count,amount,currency\n2024,total,0,0.00,EUR\n');
  });

  it('refuses a year that is not a whole number from 2000 to 2100, naming it', async () => {
    const api = await asAdministrator(ctx);
    for (const query of ['', '?year=', '?year=1999', '?year=2101', '?year=2025.5', '?year=abc']) {
      for (const path of ['', '/pdf', '/export']) {
        const answer = await api.send<{ code: string; errors: Array<{ path: string; message: string }> }>(
          'GET',
          `/api/receipts/annual-statement${path}${query}`,
        );
        expect(answer.status, `${path}${query}`).toBe(400);
        expect(answer.body.code).toBe('validation.failed');
        expect(answer.body.errors).toEqual([
          { path: 'year', message: 'The year must be a whole number between 2000 and 2100.' },
        ]);
      }
    }
  });

  it('is for Administrators only', async () => {
    const { tokens } = await createSignedInUser(ctx);
    const user = apiClient(ctx, tokens.id_token);
    for (const path of ['', '/pdf', '/export']) {
      expect((await user.send('GET', `/api/receipts/annual-statement${path}?year=2025`)).status).toBe(403);
    }
    expect((await apiClient(ctx).send('GET', '/api/receipts/annual-statement?year=2025')).status).toBe(401);
  });
});
