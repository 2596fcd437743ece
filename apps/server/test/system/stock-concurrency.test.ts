/**
 * Stock on real PostgreSQL (docs/security.md: stock): twenty sales at once of the last ten items
 * leave exactly ten sales and a stock of 0; the other ten answer 409 `products.insufficient_stock`.
 * The ledger agrees with the stock, and the CHECK constraint refuses a negative stock even from SQL.
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
const ADMIN_PASSWORD = 'stock-concurrency-password-1';

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let sql: pg.Pool | undefined;
let server: ServerProcess;

async function call(token: string, method: string, url: string, body?: unknown) {
  const answer = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  database = await createTestDatabase('stock');
  sql = openPool(database.url);
  server = await startServer({ DATABASE_URL: database.url, ADMIN_EMAIL, ADMIN_PASSWORD });
  await server.ready(60_000);
});

afterAll(async () => {
  await stopAllServers();
  await sql?.end();
  await database?.drop();
});

describe('stock on PostgreSQL', () => {
  it('sells the last 10 items exactly once to 20 concurrent sales', async () => {
    const token = await signIn(server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const product = await call(token, 'POST', '/api/products', {
      name: 'Agenda 2027',
      euroPrice: 12.5,
      swissPrice: 14,
      active: true,
      currentStock: 10,
      minStockAlert: 2,
    });
    expect(product.status).toBe(201);
    const buyer = await call(token, 'POST', '/api/subscribers', {
      firstName: 'Zoé',
      lastName: 'Acheteuse',
      email: '',
      currencyId: 1,
    });
    expect(buyer.status).toBe(201);

    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(token, 'POST', '/api/sales', {
          subscriberId: buyer.body.id,
          fullName: 'Mme Zoé Acheteuse',
          items: [{ productId: product.body.id, quantity: 1, euroUnitPrice: 12.5, swissUnitPrice: 14 }],
        }),
      ),
    );
    const sold = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(sold).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({
        code: 'products.insufficient_stock',
        errors: [{ path: 'items.0.quantity', message: 'Only 0 of "Agenda 2027" in stock (1 asked).' }],
      });
    }
    expect(sold.map((answer) => answer.body.ref).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, index) => index + 1),
    );

    const stock = await (sql as pg.Pool).query(
      `select current_stock,
              (select count(*) from sales)::int as sales,
              (select sum(quantity) from stock_movements where product_id = p.id)::int as ledger,
              (select count(*) from stock_movements where kind = 'sale')::int as sale_movements
         from products p where id = $1`,
      [product.body.id],
    );
    expect(stock.rows[0]).toEqual({ current_stock: 0, sales: 10, ledger: 0, sale_movements: 10 });

    await expect(
      (sql as pg.Pool).query('update products set current_stock = current_stock - 1 where id = $1', [
        product.body.id,
      ]),
    ).rejects.toThrow(/products_current_stock_not_negative/);
  });
});
