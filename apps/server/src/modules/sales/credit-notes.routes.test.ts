import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

let token = '';
async function api(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  token ||= (await login(ctx)).id_token;
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function product(name: string, currentStock = 10) {
  const response = await api('POST', '/api/products', {
    name,
    euroPrice: 12.5,
    swissPrice: 14,
    active: true,
    currentStock,
    minStockAlert: 2,
  });
  return response.json() as { id: number };
}

async function stockOf(id: number) {
  const list = (await api('GET', '/api/products')).json() as Array<{ id: number; currentStock: number }>;
  return list.find((item) => item.id === id)?.currentStock;
}

/** A sale of `lines` (product id, quantity) at 12.50 € each to a new buyer. */
async function sell(lines: Array<[number, number]>, buyerId?: number) {
  const subscriberId = buyerId ?? (await insertSubscribers(ctx, [buildSubscriber()]))[0]?.id ?? 0;
  const response = await api('POST', '/api/sales', {
    subscriberId,
    fullName: 'Mme Zoé Martin',
    addr1: '1 rue du Lac',
    town: 'Lyon',
    postcode: '69001',
    country: 'France',
    items: lines.map(([productId, quantity]) => ({
      productId,
      quantity,
      euroUnitPrice: 12.5,
      swissUnitPrice: 14,
    })),
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: number; ref: number; subscriberId: number };
}

const downloadInvoice = (saleId: number) => api('GET', `/api/sales/receipt/${saleId}`);

describe('invoiced sales are never deleted', () => {
  it('answers 409 sales.invoice_issued to the delete of a sale whose invoice was downloaded, and keeps it whole', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const sale = await sell([[agenda.id, 4]]);
    expect((await api('GET', `/api/sales/${sale.id}`)).json()).toMatchObject({
      invoiceIssued: false,
      status: 'active',
      creditNoteNumber: null,
    });
    expect((await downloadInvoice(sale.id)).statusCode).toBe(200);
    const refused = await api('DELETE', `/api/sales/${sale.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({ code: 'sales.invoice_issued', status: 409 });
    expect((await api('GET', `/api/sales/${sale.id}`)).json()).toMatchObject({
      ref: sale.ref,
      invoiceIssued: true,
      status: 'active',
    });
    expect(await stockOf(agenda.id)).toBe(6);
  });

  it('still deletes a sale whose invoice was never issued', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const sale = await sell([[agenda.id, 3]]);
    expect((await api('DELETE', `/api/sales/${sale.id}`)).statusCode).toBe(204);
    expect(await stockOf(agenda.id)).toBe(10);
    expect((await api('GET', `/api/sales/${sale.id}`)).statusCode).toBe(404);
  });

  it('never deletes a sale whose invoice left, when the delete and the download race', async () => {
    token = '';
    const agenda = await product('Agenda été', 100);
    for (let round = 0; round < 5; round += 1) {
      const sale = await sell([[agenda.id, 1]]);
      const [download, removal] = await Promise.all([
        downloadInvoice(sale.id),
        api('DELETE', `/api/sales/${sale.id}`),
      ]);
      // Exactly one wins: a PDF handed out means the sale is still there.
      if (download.statusCode === 200) {
        expect(removal.statusCode).toBe(409);
        expect((await api('GET', `/api/sales/${sale.id}`)).statusCode).toBe(200);
      } else {
        expect(download.statusCode).toBe(404);
        expect(removal.statusCode).toBe(204);
      }
    }
  });

  it('records the first issue only: later downloads keep the first date', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const sale = await sell([[agenda.id, 1]]);
    await Promise.all([downloadInvoice(sale.id), downloadInvoice(sale.id)]);
    const [first] = await queryRows<{ invoice_issued_at: Date }>(
      ctx.database.db,
      sql`select invoice_issued_at from sales where id = ${sale.id}`,
    );
    await downloadInvoice(sale.id);
    const [again] = await queryRows<{ invoice_issued_at: Date }>(
      ctx.database.db,
      sql`select invoice_issued_at from sales where id = ${sale.id}`,
    );
    expect(first?.invoice_issued_at).not.toBeNull();
    expect(new Date(again?.invoice_issued_at ?? 0).getTime()).toBe(
      new Date(first?.invoice_issued_at ?? 1).getTime(),
    );
  });
});

describe('credit notes', () => {
  it('cancels an invoiced sale: 201 with the credit note, stock back, cancelled status, history', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const mug = await product('Mug du lac', 5);
    const sale = await sell([
      [agenda.id, 2],
      [mug.id, 1],
    ]);
    expect(await stockOf(agenda.id)).toBe(8);
    await downloadInvoice(sale.id);
    const response = await api('POST', `/api/sales/${sale.id}/cancel`, { reason: '  Commande en double  ' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      creditNoteNumber: 1,
      saleId: sale.id,
      amount: 37.5,
      issuedAt: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(body.issuedAt))).toBe(false);
    expect(await stockOf(agenda.id)).toBe(10);
    expect(await stockOf(mug.id)).toBe(5);
    expect((await api('GET', `/api/sales/${sale.id}`)).json()).toMatchObject({
      status: 'cancelled',
      creditNoteNumber: 1,
    });
    const rows = (await api('GET', `/api/sales?salesref=${sale.ref}`)).json();
    expect(rows).toEqual([
      expect.objectContaining({ id: sale.id, status: 'cancelled', creditNoteNumber: 1 }),
    ]);
    const [latest] = (await api('GET', `/api/subscribers/${sale.subscriberId}/history`)).json();
    expect(latest.description).toBe(
      `Sale #${sale.ref} of 37,50 € cancelled: Avoir n° 1 annule la facture n° ${sale.ref}. Reason: Commande en double. Its items were put back in stock.`,
    );
    // The cancelled sale stays: it cannot be deleted either.
    expect((await api('DELETE', `/api/sales/${sale.id}`)).json()).toMatchObject({
      code: 'sales.invoice_issued',
    });
  });

  it('answers 409 sales.already_cancelled to a second cancel and puts the stock back once', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const sale = await sell([[agenda.id, 3]]);
    await downloadInvoice(sale.id);
    const [a, b] = await Promise.all([
      api('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Erreur' }),
      api('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Erreur' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const again = await api('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Encore' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'sales.already_cancelled' });
    expect(await stockOf(agenda.id)).toBe(10);
  });

  it('refuses a cancel without reason (400 naming reason), of a sale without invoice (409) or unknown (404)', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const sale = await sell([[agenda.id, 1]]);
    const notIssued = await api('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Erreur' });
    expect(notIssued.statusCode).toBe(409);
    expect(notIssued.json()).toMatchObject({ code: 'sales.invoice_not_issued' });
    await downloadInvoice(sale.id);
    for (const payload of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 12 }]) {
      const bad = await api('POST', `/api/sales/${sale.id}/cancel`, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual([expect.objectContaining({ path: 'reason' })]);
    }
    expect((await api('POST', '/api/sales/9999/cancel', { reason: 'Erreur' })).statusCode).toBe(404);
    expect(await stockOf(agenda.id)).toBe(9);
    expect((await api('GET', `/api/sales/${sale.id}/credit-note`)).json()).toMatchObject({
      code: 'sales.credit_note_not_found',
    });
  });

  it('numbers credit notes 1..n without gap or duplicate under concurrent cancels', async () => {
    token = '';
    const agenda = await product('Agenda été', 100);
    const sold = [];
    for (let index = 0; index < 8; index += 1) sold.push(await sell([[agenda.id, 1]]));
    for (const sale of sold) await downloadInvoice(sale.id);
    // Every sale cancelled twice at once: one credit note each, numbers 1..8.
    const responses = await Promise.all(
      [...sold, ...sold].map((sale) => api('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Lot annulé' })),
    );
    const created = responses.filter((response) => response.statusCode === 201);
    expect(created).toHaveLength(8);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(8);
    expect(created.map((response) => response.json().creditNoteNumber).sort((x, y) => x - y)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    expect(await stockOf(agenda.id)).toBe(100);
  });

  it('gives the credit note PDF in French from the stored facts, the same every time', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const sale = await sell([[agenda.id, 2]]);
    await downloadInvoice(sale.id);
    await api('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Livre abîmé' });
    const response = await api('GET', `/api/sales/${sale.id}/credit-note`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('credit-note-1.pdf');
    const [text] = await pdfPages(response.rawPayload);
    expect(text).toContain('Avoir');
    expect(text).toContain(`Avoir n° 1 annule la facture n° ${sale.ref}.`);
    expect(text).toContain('Motif : Livre abîmé');
    expect(text).toContain('Agenda été');
    expect(text).toContain('25,00 €');
    expect(text).toContain('Mme Zoé Martin');
    const again = await api('GET', `/api/sales/${sale.id}/credit-note`);
    expect(await pdfPages(again.rawPayload)).toEqual([text]);
    expect((await api('GET', '/api/sales/9999/credit-note')).statusCode).toBe(404);
  });

  it('keeps credit notes immutable in the database', async () => {
    token = '';
    const agenda = await product('Agenda été', 10);
    const sale = await sell([[agenda.id, 1]]);
    await downloadInvoice(sale.id);
    await api('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Erreur' });
    await expect(ctx.database.db.execute(sql`update credit_notes set reason = 'x'`)).rejects.toThrow();
    await expect(ctx.database.db.execute(sql`delete from credit_notes`)).rejects.toThrow();
    await expect(ctx.database.db.execute(sql`delete from sales where id = ${sale.id}`)).rejects.toThrow();
  });
});
