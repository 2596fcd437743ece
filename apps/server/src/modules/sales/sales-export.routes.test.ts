import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';

const ctx = useTestApp();

/** CSV text (starting with a BOM) to rows of cells, quotes and doubled quotes undone. */
function parseCsv(body: string) {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const text = body.slice(1);
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(cell);
      cell = '';
    } else if (character === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else cell += character;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

async function seedSales() {
  const headers = bearer((await login(ctx)).id_token);
  const [zoe, hans] = await insertSubscribers(ctx, [
    buildSubscriber({ lastName: 'Martin', email: 'zoe@example.org' }),
    buildSubscriber({ lastName: 'Müller' }),
  ]);
  const product = async (name: string, euroPrice: number, swissPrice: number) =>
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/products',
        headers,
        payload: { name, euroPrice, swissPrice, active: true, currentStock: 100, minStockAlert: 0 },
      })
    ).json() as { id: number };
  const agenda = await product('Agenda été', 12.5, 14);
  const evil = await product('=HYPERLINK("x")', 1, 1);
  const sell = async (
    subscriberId: number,
    swissSale: boolean,
    items: Array<[number, number, number, number]>,
    fullName: string,
  ) =>
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/sales',
        headers,
        payload: {
          subscriberId,
          fullName,
          swissSale,
          town: 'Lyon',
          postcode: '69001',
          items: items.map(([productId, quantity, euroUnitPrice, swissUnitPrice]) => ({
            productId,
            quantity,
            euroUnitPrice,
            swissUnitPrice,
          })),
        },
      })
    ).json() as { id: number; ref: number };
  const first = await sell(
    zoe?.id ?? 0,
    false,
    [
      [agenda.id, 2, 12.5, 14],
      [evil.id, 1, 1, 1],
    ],
    'Mme Zoé Martin',
  );
  const second = await sell(hans?.id ?? 0, true, [[agenda.id, 1, 12.5, 14]], '+41 Hans Müller');
  return { headers, first, second, agenda };
}

describe('sales exports', () => {
  it('exports one row per sale, newest first, formula-safe, whatever the Accept header', async () => {
    const { headers, first, second } = await seedSales();
    const response = await ctx.app.inject({
      url: '/api/sales/export?isdetailed=false',
      headers: { ...headers, accept: 'application/pdf' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('filename="sales-export.csv"');
    const [header, ...rows] = parseCsv(response.body);
    expect(header?.slice(0, 4)).toEqual(['ref', 'date', 'subscriberId', 'name']);
    expect(rows.map((row) => row[0])).toEqual([String(second.ref), String(first.ref)]);
    const total = header?.indexOf('total') ?? -1;
    expect(rows[1]?.[total]).toBe('26.00');
    expect(rows[0]?.[3]).toBe("'+41 Hans Müller");
    expect(rows[0]?.[header?.indexOf('currency') ?? -1]).toBe('CHF');
  });

  it('exports one row per line with the detailed flag, and applies the filters', async () => {
    const { headers, first, agenda } = await seedSales();
    const response = await ctx.app.inject({
      url: `/api/sales/export?isdetailed=true&name=mart&product=${agenda.id}`,
      headers,
    });
    expect(response.headers['content-disposition']).toContain('filename="detailed-sales-export.csv"');
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([
      'ref',
      'date',
      'name',
      'postcode',
      'currency',
      'productId',
      'product',
      'quantity',
      'unitPrice',
      'lineTotal',
    ]);
    expect(rows.map((row) => [row[0], row[6], row[7], row[9]])).toEqual([
      [String(first.ref), 'Agenda été', '2', '25.00'],
      [String(first.ref), `'=HYPERLINK("x")`, '1', '1.00'],
    ]);
  });

  it('totals items and amounts per product and currency over a period', async () => {
    const { headers } = await seedSales();
    const today = new Date().toISOString().slice(0, 10);
    const response = await ctx.app.inject({ url: `/api/sales/salecount?from=${today}&to=${today}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(`sales totals (${today}-${today}).csv`);
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual(['product', 'currency', 'quantity', 'amount', 'sales']);
    expect(rows).toEqual([
      [`'=HYPERLINK("x")`, '€', '1', '1.00', '1'],
      ['Agenda été', 'CHF', '1', '14.00', '1'],
      ['Agenda été', '€', '2', '25.00', '1'],
    ]);
    expect(
      (await ctx.app.inject({ url: '/api/sales/salecount?from=2026-02-01&to=2026-01-01', headers }))
        .statusCode,
    ).toBe(400);
  });
});
