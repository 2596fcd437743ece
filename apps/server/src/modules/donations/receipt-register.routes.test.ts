import type { ReceiptChainCheck, ReceiptRegister, RegisteredReceipt } from '@back-office/contract/receipts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator, type TestApi } from '../../../test/api.ts';
import { createSignedInUser, testConfig, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertDonation, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { readQrCode } from '../../../test/qr.ts';
import { queryRows } from '../../db/client.ts';
import { stampMissingHashes } from './receipts.repository.ts';

const ctx = useTestApp();

/** Two donors: Zoé gives twice in 2025 (one receipt each), Luc once (an annual receipt). */
async function seedReceipts(api: TestApi) {
  const [zoe, luc] = await insertSubscribers(ctx, [
    buildSubscriber({ title: 'Mme', firstName: 'Zoé', lastName: 'Martin' }),
    buildSubscriber({ title: 'M.', firstName: 'Luc', lastName: 'Perret' }),
  ]);
  if (!zoe || !luc) throw new Error('no donors');
  const first = await insertDonation(ctx, zoe.id, { amount: 40, donationDate: '2025-03-01' });
  const second = await insertDonation(ctx, zoe.id, { amount: 15.5, donationDate: '2025-04-02' });
  await insertDonation(ctx, luc.id, { amount: 100, donationDate: '2025-05-03' });
  for (const url of [
    `/api/donations/receipt/${first.id}`,
    `/api/donations/receipt/${second.id}`,
    `/api/donations/receipt/${luc.id}/2025`,
  ]) {
    expect((await api.send('GET', url)).status).toBe(200);
  }
  return { zoe, luc, first, second };
}

const register = (api: TestApi, query = '') =>
  api.expectStatus<ReceiptRegister>(200, 'GET', `/api/receipts${query}`);
const verify = (api: TestApi) => api.expectStatus<ReceiptChainCheck>(200, 'GET', '/api/receipts/verify');
const pdfText = async (api: TestApi, number: number) => {
  const response = await api.send('GET', `/api/receipts/${number}/pdf`);
  expect(response.status).toBe(200);
  return (await pdfPages(response.raw)).join('\n');
};

describe('the receipt register', () => {
  it('lists every receipt by number with its hash, chained so that the whole register verifies', async () => {
    const api = await asAdministrator(ctx);
    await seedReceipts(api);
    const listed = await register(api);
    expect(listed.count).toBe(3);
    expect(
      listed.models.map((receipt) => [
        receipt.number,
        receipt.subscriberName,
        receipt.amount,
        receipt.status,
      ]),
    ).toEqual([
      [1, 'Mme Zoé Martin', 40, 'issued'],
      [2, 'Mme Zoé Martin', 15.5, 'issued'],
      [3, 'M. Luc Perret', 100, 'issued'],
    ]);
    expect(listed.models.every((receipt) => /^[0-9a-f]{64}$/.test(receipt.hash))).toBe(true);
    expect(new Set(listed.models.map((receipt) => receipt.hash)).size).toBe(3);
    expect(await verify(api)).toEqual({ ok: true, checked: 3 });
    expect((await register(api, '?year=2024')).count).toBe(0);
    expect(
      (await register(api, '?status=issued&listfrom=3')).models.map((receipt) => receipt.number),
    ).toEqual([3]);

    const csv = await api.send('GET', '/api/receipts/export?dialect=excel-fr');
    expect(csv.status).toBe(200);
    const lines = csv.raw
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'number;issuedAt;subscriberId;subscriberName;amount;currency;status;cancelReason;replaces;replacedBy;hash',
    );
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain(';Mme Zoé Martin;15,50;€;issued;');
  });

  it('cancels a receipt: printed ANNULÉ with the reason, its gift receipted again under the next number', async () => {
    const api = await asAdministrator(ctx);
    const { first } = await seedReceipts(api);
    const cancelled = await api.expectStatus<RegisteredReceipt>(200, 'POST', '/api/receipts/1/cancel', {
      reason: 'Montant saisi deux fois',
    });
    expect(cancelled).toMatchObject({
      number: 1,
      status: 'cancelled',
      cancelReason: 'Montant saisi deux fois',
    });
    const text = await pdfText(api, 1);
    expect(text).toContain('ANNULÉ le');
    expect(text).toContain('Montant saisi deux fois');
    expect(text).toContain('Reçu n° 1');

    // The gift is free again: its receipt is a new one, with the next number.
    const again = await api.send('GET', `/api/donations/receipt/${first.id}`);
    expect((await pdfPages(again.raw)).join('\n')).toContain('Reçu n° 4');
    expect((await register(api)).models.map((receipt) => [receipt.number, receipt.status])).toEqual([
      [1, 'cancelled'],
      [2, 'issued'],
      [3, 'issued'],
      [4, 'issued'],
    ]);
    // Cancelling changes no hash: the chain still holds.
    expect(await verify(api)).toEqual({ ok: true, checked: 4 });

    const twice = await api.send<{ code: string; detail: string }>('POST', '/api/receipts/1/cancel', {
      reason: 'Encore',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('receipts.cancelled');
    expect((await api.send('POST', '/api/receipts/99/cancel', { reason: 'Inconnu' })).status).toBe(404);
    const short = await api.send<{ errors: Array<{ path: string }> }>('POST', '/api/receipts/2/cancel', {
      reason: '',
    });
    expect(short.status).toBe(400);
    expect(short.body.errors.map((error) => error.path)).toEqual(['reason']);
  });

  it('replaces a receipt by the next number, which names the one it replaces', async () => {
    const api = await asAdministrator(ctx);
    const { luc } = await seedReceipts(api);
    const replacement = await api.expectStatus<RegisteredReceipt>(201, 'POST', '/api/receipts/3/replace', {
      reason: 'Adresse du donateur corrigée',
    });
    expect(replacement).toMatchObject({
      number: 4,
      replaces: 3,
      status: 'issued',
      amount: 100,
      subscriberId: luc.id,
    });
    expect((await register(api, '?listfrom=3')).models).toMatchObject([
      { number: 3, status: 'cancelled', replacedBy: 4 },
      { number: 4, status: 'issued', replaces: 3 },
    ]);
    expect(await pdfText(api, 4)).toContain('Ce reçu annule et remplace le reçu n° 3.');
    // The donor's annual receipt of the year is now the replacement only.
    const annual = await api.send('GET', `/api/donations/receipt/${luc.id}/2025`);
    const pages = await pdfPages(annual.raw);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Reçu n° 4');
    expect(await verify(api)).toEqual({ ok: true, checked: 4 });
  });

  it('is for Administrators to cancel and replace; anyone signed in reads and verifies', async () => {
    const admin = await asAdministrator(ctx);
    await seedReceipts(admin);
    const { tokens } = await createSignedInUser(ctx);
    const user = apiClient(ctx, tokens.id_token);
    expect((await user.send('POST', '/api/receipts/1/cancel', { reason: 'Erreur' })).status).toBe(403);
    expect((await user.send('POST', '/api/receipts/1/replace', { reason: 'Erreur' })).status).toBe(403);
    expect((await user.send('GET', '/api/receipts')).status).toBe(200);
    expect((await user.send('GET', '/api/receipts/verify')).status).toBe(200);
  });
});

describe('a receipt cannot be changed, and a change made behind the application is found', () => {
  it('refuses to edit or delete a receipt in the database itself', async () => {
    const api = await asAdministrator(ctx);
    await seedReceipts(api);
    await expect(
      ctx.database.db.execute(sql`update receipts set total = 1 where number = 2`),
    ).rejects.toThrow();
    await expect(ctx.database.db.execute(sql`delete from receipts where number = 3`)).rejects.toThrow();
    await api.expectStatus(200, 'POST', '/api/receipts/2/cancel', { reason: 'Erreur de saisie' });
    await expect(
      ctx.database.db.execute(sql`update receipts set status = 'issued' where number = 2`),
    ).rejects.toThrow();
  });

  it('names the first receipt altered, or missing, once the guard is switched off', async () => {
    const api = await asAdministrator(ctx);
    await seedReceipts(api);
    const db = ctx.database.db;
    await db.execute(sql`alter table receipts disable trigger receipts_kept`);
    try {
      await db.execute(sql`update receipts set total = '400.00' where number = 2`);
      expect(await verify(api)).toEqual({
        ok: false,
        checked: 1,
        firstBreak: {
          number: 2,
          reason: 'Its hash does not match its content and the receipt before it: it was altered.',
        },
      });
      await db.execute(sql`update receipts set total = '15.50' where number = 2`);
      expect(await verify(api)).toEqual({ ok: true, checked: 3 });

      await db.execute(
        sql`update donations set receipt_id = null where receipt_id = (select id from receipts where number = 2)`,
      );
      await db.execute(sql`delete from receipts where number = 2`);
      expect(await verify(api)).toMatchObject({
        ok: false,
        checked: 1,
        firstBreak: { number: 3, reason: 'Receipt n° 2 is missing before it.' },
      });
    } finally {
      await db.execute(sql`alter table receipts enable trigger receipts_kept`);
    }
  });

  it('stamps the receipts issued before hashes were kept with the same chain', async () => {
    const api = await asAdministrator(ctx);
    await seedReceipts(api);
    const db = ctx.database.db;
    const hashes = async () =>
      (await queryRows<{ hash: string | null }>(db, sql`select hash from receipts order by number`)).map(
        (row) => row.hash,
      );
    const issued = await hashes();
    await db.execute(sql`alter table receipts disable trigger receipts_kept`);
    await db.execute(sql`update receipts set hash = null`);
    await db.execute(sql`alter table receipts enable trigger receipts_kept`);
    expect(await stampMissingHashes(db)).toBe(3);
    expect(await hashes()).toEqual(issued);
    expect(await verify(api)).toEqual({ ok: true, checked: 3 });
  });
});

describe('the public check a receipt’s QR code leads to', () => {
  it('reads the QR code of the PDF and follows it: valid, then cancelled; a wrong or unknown link is unknown', async () => {
    const api = await asAdministrator(ctx);
    await seedReceipts(api);
    const pdf = await api.send('GET', '/api/receipts/2/pdf');
    const link = await readQrCode(pdf.raw);
    const [receipt] = (await register(api, '?listfrom=2&listlength=1')).models;
    expect(link).toBe(`${testConfig().publicUrl}/verify/receipt/2?h=${receipt?.hash.slice(0, 16)}`);
    const path = new URL(link ?? '').pathname + new URL(link ?? '').search;

    const valid = await ctx.app.inject({ method: 'GET', url: path });
    expect(valid.statusCode).toBe(200);
    expect(valid.headers['content-type']).toContain('text/html');
    expect(valid.body).toContain('Reçu n° 2 : valable');
    expect(valid.body).toContain('Dons de l’année 2025');
    expect(valid.body).toContain('15,50 €');
    expect(valid.body).toContain('Donateur : Z. M.');
    expect(valid.body).not.toContain('Martin');

    await api.expectStatus(201, 'POST', '/api/receipts/2/replace', { reason: 'Erreur de date' });
    const cancelled = await ctx.app.inject({ method: 'GET', url: path });
    expect(cancelled.body).toContain('Reçu n° 2 : annulé');
    expect(cancelled.body).toContain('Il est remplacé par le reçu n° 4.');

    for (const url of [
      '/verify/receipt/2?h=0000000000000000',
      '/verify/receipt/2',
      '/verify/receipt/99?h=abc',
      '/verify/receipt/x',
    ]) {
      const unknown = await ctx.app.inject({ method: 'GET', url });
      expect(unknown.statusCode, url).toBe(404);
      expect(unknown.body).toContain('Reçu inconnu');
    }
  });

  it('answers 429 to an address that tries too many links', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      statuses.push(
        (await ctx.app.inject({ method: 'GET', url: `/verify/receipt/${attempt + 1}?h=00` })).statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
