/**
 * Credit notes on PostgreSQL, through a real server process: invoices issued by download are never
 * deleted, even when the delete and the download race on two connections; cancelling several sales
 * from concurrent requests gives credit notes numbered 1..n without gap or duplicate, and the stock
 * back exactly once per sale.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  openPool,
  type ServerProcess,
  signIn,
  startServer,
  stopAllServers,
} from './harness.ts';

const ADMIN_EMAIL = 'admin@example.org';
const ADMIN_PASSWORD = 'credit-notes-password-1';

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let sql: pg.Pool | undefined;
let server: ServerProcess;
let token = '';

async function call(method: string, url: string, body?: unknown) {
  return fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function callOk<T>(method: string, url: string, body: unknown, status: number): Promise<T> {
  const answer = await call(method, url, body);
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`${method} ${url}: ${answer.status} ${text}`);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  database = await createTestDatabase('credit_notes');
  sql = openPool(database.url);
  server = await startServer({
    DATABASE_URL: database.url,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
  });
  await server.ready(60_000);
  token = await signIn(server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
});

afterAll(async () => {
  await stopAllServers();
  await sql?.end();
  await database?.drop();
});

describe('credit notes on PostgreSQL', () => {
  it('numbers credit notes 1..n under concurrent cancels, and never deletes an issued invoice', async () => {
    const product = await callOk<{ id: number }>(
      'POST',
      '/api/products',
      { name: 'Agenda', euroPrice: 12.5, swissPrice: 14, active: true, currentStock: 100, minStockAlert: 2 },
      201,
    );
    const buyer = await callOk<{ id: number }>(
      'POST',
      '/api/subscribers',
      { firstName: 'Zoé', lastName: 'Avoir', email: '', currencyId: 1, town: 'Lyon', postcode: '69001' },
      201,
    );
    const sell = () =>
      callOk<{ id: number; ref: number }>(
        'POST',
        '/api/sales',
        {
          subscriberId: buyer.id,
          fullName: 'Mme Zoé Avoir',
          country: 'France',
          items: [{ productId: product.id, quantity: 2, euroUnitPrice: 12.5, swissUnitPrice: 14 }],
        },
        201,
      );

    // A delete racing the invoice's first download: whichever wins, a PDF handed out means the sale stays.
    for (let round = 0; round < 6; round += 1) {
      const sale = await sell();
      const [download, removal] = await Promise.all([
        call('GET', `/api/sales/receipt/${sale.id}`),
        call('DELETE', `/api/sales/${sale.id}`),
      ]);
      const kept = await sql?.query('select invoice_issued_at from sales where id = $1', [sale.id]);
      if (download.status === 200) {
        expect(removal.status).toBe(409);
        expect(kept?.rows[0]?.invoice_issued_at).toBeInstanceOf(Date);
      } else {
        expect([download.status, removal.status]).toEqual([404, 204]);
        expect(kept?.rowCount).toBe(0);
      }
      await download.arrayBuffer();
      await removal.arrayBuffer();
    }

    const sold = [];
    for (let index = 0; index < 10; index += 1) sold.push(await sell());
    for (const sale of sold) {
      const invoice = await call('GET', `/api/sales/receipt/${sale.id}`);
      expect(invoice.status).toBe(200);
      await invoice.arrayBuffer();
    }
    const stockBefore = await sql?.query('select current_stock from products where id = $1', [product.id]);

    // Two requests at once for every sale, all sent together.
    const answers = await Promise.all(
      [...sold, ...sold].map((sale) =>
        call('POST', `/api/sales/${sale.id}/cancel`, { reason: 'Annulation' }),
      ),
    );
    const bodies = await Promise.all(
      answers.map(async (answer) => ({ status: answer.status, body: await answer.json() })),
    );
    const created = bodies.filter((answer) => answer.status === 201);
    expect(created).toHaveLength(10);
    expect(bodies.filter((answer) => answer.status === 409).map((answer) => answer.body.code)).toEqual(
      Array(10).fill('sales.already_cancelled'),
    );
    expect(created.map((answer) => answer.body.creditNoteNumber).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, index) => index + 1),
    );

    const stored = await sql?.query<{ number: number; sale_id: number }>(
      'select number, sale_id from credit_notes order by number',
    );
    expect(stored?.rows.map((row) => row.number)).toEqual(
      Array.from({ length: 10 }, (_, index) => index + 1),
    );
    expect(new Set(stored?.rows.map((row) => row.sale_id))).toEqual(new Set(sold.map((sale) => sale.id)));
    const counter = await sql?.query('select last_number from credit_note_counter');
    expect(counter?.rows[0]?.last_number).toBe(10);
    const stockAfter = await sql?.query('select current_stock from products where id = $1', [product.id]);
    expect(stockAfter?.rows[0]?.current_stock).toBe(Number(stockBefore?.rows[0]?.current_stock) + 20);

    const pdf = await call('GET', `/api/sales/${sold[0]?.id}/credit-note`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });
});
