import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { queryRows } from '../../db/client.ts';

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
          // A sale in francs carries a QR-bill: its buyer's address must be complete.
          country: 'France',
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

/** One inserted sale: the exported columns of `sales` (empty unless given) and its lines. */
type TrickySale = {
  ref: number;
  subscriberId: number;
  currency: '€' | 'CHF';
  addedOn: string;
  fullName: string;
  association?: string;
  addr1?: string;
  addr2?: string;
  addr3?: string;
  town?: string;
  postcode?: string;
  country?: string;
  orderNumber?: string;
  addedBy?: string;
  discountPercentage?: string;
  amounts?: [subTotal: string, discount: string, delivery: string, donation: string, total: string];
  lines?: Array<
    [position: number, productId: number, productName: string, quantity: number, unitPrice: string]
  >;
};

/** Inserts sales straight into the tables, with values the API would refuse or tidy (tabs, line breaks). */
async function insertTrickySales(list: TrickySale[]) {
  for (const sale of list) {
    const [subTotal, discount, delivery, donation, total] = sale.amounts ?? ['0', '0', '0', '0', '0'];
    const [row] = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`insert into sales (ref, subscriber_id, full_name, association, currency_id, swiss_sale,
            discount_percentage, sub_total, discount_amount, delivery_charge, donation, total, include_thanks,
            include_payment_terms, payment_term_days, addr1, addr2, addr3, town, postcode, country,
            order_number, added_by, added_on)
          values (${sale.ref}, ${sale.subscriberId}, ${sale.fullName}, ${sale.association ?? ''},
            (select id from currencies where symbol = ${sale.currency} order by id limit 1),
            ${sale.currency === 'CHF'}, ${sale.discountPercentage ?? '0'}, ${subTotal}, ${discount}, ${delivery},
            ${donation}, ${total}, false, false, 30, ${sale.addr1 ?? ''}, ${sale.addr2 ?? ''}, ${sale.addr3 ?? ''},
            ${sale.town ?? ''}, ${sale.postcode ?? ''}, ${sale.country ?? ''}, ${sale.orderNumber ?? ''},
            ${sale.addedBy ?? 'Test'}, ${sale.addedOn}::timestamptz)
          returning id`,
    );
    if (!row) throw new Error('insert into sales returned no row');
    for (const [position, productId, productName, quantity, unitPrice] of sale.lines ?? []) {
      await ctx.database.db.execute(sql`
        insert into sale_lines (sale_id, position, product_id, product_name, quantity, euro_unit_price,
          swiss_unit_price, unit_price, line_total)
        values (${row.id}, ${position}, ${productId}, ${productName}, ${quantity}, ${unitPrice}, ${unitPrice},
          ${unitPrice}, ${unitPrice}::numeric * ${quantity})`);
    }
  }
}

/**
 * Sales whose values test the CSV: commas, quotes, line breaks, formula starts, an empty association
 * and email, accents and emoji, a CHF sale, negative amounts and quantity, two sales of the same instant (the id
 * breaks the tie), a sale without lines, lines inserted out of position order.
 */
async function seedTrickySales() {
  const [jean, sean] = await insertSubscribers(ctx, [
    buildSubscriber({ lastName: 'Dupont', email: 'jean@example.org' }),
    buildSubscriber({ lastName: "O'Brien" }),
  ]);
  if (!jean || !sean) throw new Error('no subscribers');
  await ctx.database.db.execute(sql`update subscribers set email = '' where id = ${sean.id}`);
  const products = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`insert into products (name, euro_price, swiss_price) values ('A', 1, 1), ('B', 2, 2), ('C', 3, 3)
        returning id`,
  );
  const [a, b, c] = products.map((product) => product.id) as [number, number, number];
  await insertTrickySales([
    {
      ref: 101,
      subscriberId: jean.id,
      currency: 'CHF',
      addedOn: '2026-03-03 10:00:00+00',
      fullName: 'Dupont, "Jean"',
      addr1: 'Rue du Lac\nCase postale 12',
      addr2: '=1+2',
      addr3: '-5',
      town: 'Genève',
      postcode: '1201',
      country: 'Suisse',
      orderNumber: '@SUM(A1)',
      addedBy: 'Zoé Müller',
      discountPercentage: '12.5',
      amounts: ['100', '12.5', '8', '0', '95.5'],
      lines: [
        [1, b, '=HYPERLINK("x")', 1, '75'],
        [0, a, 'Agenda, "été"', 2, '12.5'],
      ],
    },
    {
      ref: 102,
      subscriberId: sean.id,
      currency: '€',
      addedOn: '2026-03-03 09:00:00+00',
      fullName: '\tTabbed',
      association: '+33 asso',
      addr1: 'line\r\nbreak',
      addr2: '"',
      addr3: '\r',
      town: 'Saint-Étienne',
      postcode: '42000',
      country: 'France',
      addedBy: ' spaced, trailing,',
      amounts: ['10', '0', '0', '-1.5', '8.5'],
      lines: [[0, a, '-', -1, '10']],
    },
    {
      ref: 103,
      subscriberId: jean.id,
      currency: '€',
      addedOn: '2026-03-01 23:30:00-01',
      fullName: 'Ünïcödé ✓ 😀',
    },
    {
      ref: 104,
      subscriberId: jean.id,
      currency: '€',
      addedOn: '2026-03-03 09:00:00+00',
      fullName: 'Four',
      amounts: ['3', '0', '0', '0', '3'],
      lines: [[0, c, 'Carnet\nA5', 3, '1']],
    },
  ]);
  return { jean, sean, products: { a, b, c } };
}

const SALE_HEADER =
  '\ufeffref,date,subscriberId,name,association,address1,address2,address3,town,postcode,country,email,' +
  'currency,subTotal,discountPercentage,discountAmount,deliveryCharge,donation,total,orderNumber,addedBy\n';
const LINE_HEADER =
  '\ufeffref,date,name,postcode,currency,productId,product,quantity,unitPrice,lineTotal,' +
  'email,association,address1,address2,address3,town,country,discountPercentage,deliveryCharge,donation,total,orderNumber\n';

describe('sales exports', () => {
  it('writes the exact same CSV on PGlite (csv-stringify) and on PostgreSQL (COPY)', async () => {
    const headers = bearer((await login(ctx)).id_token);
    const { jean, sean, products } = await seedTrickySales();
    const { a, b, c } = products;
    const download = async (query: string) => {
      const response = await ctx.app.inject({ url: `/api/sales/export${query}`, headers });
      expect(response.statusCode).toBe(200);
      return response.body;
    };

    expect(await download('')).toBe(
      SALE_HEADER +
        `101,2026-03-03,${jean.id},"Dupont, ""Jean""",,"Rue du Lac\nCase postale 12",'=1+2,'-5,Genève,1201,` +
        "Suisse,jean@example.org,CHF,100.00,12.5,12.50,8.00,0.00,95.50,'@SUM(A1),Zoé Müller\n" +
        `104,2026-03-03,${jean.id},Four,,,,,,,,jean@example.org,€,3.00,0,0.00,0.00,0.00,3.00,,Test\n` +
        `102,2026-03-03,${sean.id},'\tTabbed,'+33 asso,"line\r\nbreak","""","'\r",Saint-Étienne,42000,` +
        `France,,€,10.00,0,0.00,0.00,'-1.50,8.50,," spaced, trailing,"\n` +
        `103,2026-03-02,${jean.id},Ünïcödé ✓ 😀,,,,,,,,jean@example.org,€,0.00,0,0.00,0.00,0.00,0.00,,Test\n`,
    );
    expect(await download('?isdetailed=1')).toBe(
      LINE_HEADER +
        `101,2026-03-03,"Dupont, ""Jean""",1201,CHF,${a},"Agenda, ""été""",2,12.50,25.00,jean@example.org,,"Rue du Lac\nCase postale 12",'=1+2,'-5,Genève,Suisse,12.5,8.00,0.00,95.50,'@SUM(A1)\n` +
        `101,2026-03-03,"Dupont, ""Jean""",1201,CHF,${b},"'=HYPERLINK(""x"")",1,75.00,75.00,jean@example.org,,"Rue du Lac\nCase postale 12",'=1+2,'-5,Genève,Suisse,12.5,8.00,0.00,95.50,'@SUM(A1)\n` +
        `104,2026-03-03,Four,,€,${c},"Carnet\nA5",3,1.00,3.00,jean@example.org,,,,,,,0,0.00,0.00,3.00,\n` +
        `102,2026-03-03,'\tTabbed,42000,€,${a},'-,-1,10.00,'-10.00,,'+33 asso,"line\r\nbreak","""","'\r",Saint-Étienne,France,0,0.00,'-1.50,8.50,\n`,
    );
    // Filters, whose values COPY gets written into the statement: quotes and backslashes included.
    expect(await download(`?isdetailed=1&name=${encodeURIComponent("o'b")}`)).toBe(
      `${LINE_HEADER}102,2026-03-03,'\tTabbed,42000,€,${a},'-,-1,10.00,'-10.00,,'+33 asso,"line\r\nbreak","""","'\r",Saint-Étienne,France,0,0.00,'-1.50,8.50,\n`,
    );
    expect(await download(`?isdetailed=1&zip=${encodeURIComponent("1'\\")}`)).toBe(LINE_HEADER);
    expect(await download(`?product=${c}&addedafter=2026-03-02`)).toBe(
      `${SALE_HEADER}104,2026-03-03,${jean.id},Four,,,,,,,,jean@example.org,€,3.00,0,0.00,0.00,0.00,3.00,,Test\n`,
    );
  });

  it('writes the Excel-FR dialect (; and decimal comma) the same on PGlite and on PostgreSQL', async () => {
    const headers = bearer((await login(ctx)).id_token);
    const { jean, sean, products } = await seedTrickySales();
    const { a, b, c } = products;
    const download = async (query: string) => {
      const response = await ctx.app.inject({ url: `/api/sales/export${query}`, headers });
      expect(response.statusCode).toBe(200);
      return response.body;
    };

    expect(await download('?dialect=excel-fr')).toBe(
      SALE_HEADER.replaceAll(',', ';') +
        `101;2026-03-03;${jean.id};"Dupont, ""Jean""";;"Rue du Lac\nCase postale 12";'=1+2;'-5;Genève;1201;` +
        "Suisse;jean@example.org;CHF;100,00;12,5;12,50;8,00;0,00;95,50;'@SUM(A1);Zoé Müller\n" +
        `104;2026-03-03;${jean.id};Four;;;;;;;;jean@example.org;€;3,00;0;0,00;0,00;0,00;3,00;;Test\n` +
        `102;2026-03-03;${sean.id};'\tTabbed;'+33 asso;"line\r\nbreak";"""";"'\r";Saint-Étienne;42000;` +
        `France;;€;10,00;0;0,00;0,00;'-1,50;8,50;; spaced, trailing,\n` +
        `103;2026-03-02;${jean.id};Ünïcödé ✓ 😀;;;;;;;;jean@example.org;€;0,00;0;0,00;0,00;0,00;0,00;;Test\n`,
    );
    expect(await download('?isdetailed=1&dialect=excel-fr')).toBe(
      LINE_HEADER.replaceAll(',', ';') +
        `101;2026-03-03;"Dupont, ""Jean""";1201;CHF;${a};"Agenda, ""été""";2;12,50;25,00;jean@example.org;;"Rue du Lac\nCase postale 12";'=1+2;'-5;Genève;Suisse;12,5;8,00;0,00;95,50;'@SUM(A1)\n` +
        `101;2026-03-03;"Dupont, ""Jean""";1201;CHF;${b};"'=HYPERLINK(""x"")";1;75,00;75,00;jean@example.org;;"Rue du Lac\nCase postale 12";'=1+2;'-5;Genève;Suisse;12,5;8,00;0,00;95,50;'@SUM(A1)\n` +
        `104;2026-03-03;Four;;€;${c};"Carnet\nA5";3;1,00;3,00;jean@example.org;;;;;;;0;0,00;0,00;3,00;\n` +
        `102;2026-03-03;'\tTabbed;42000;€;${a};'-;-1;10,00;'-10,00;;'+33 asso;"line\r\nbreak";"""";"'\r";Saint-Étienne;France;0;0,00;'-1,50;8,50;\n`,
    );
    const unknown = await ctx.app.inject({ url: '/api/sales/export?dialect=xlsx', headers });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([expect.objectContaining({ path: 'dialect' })]);
  });

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
      'email',
      'association',
      'address1',
      'address2',
      'address3',
      'town',
      'country',
      'discountPercentage',
      'deliveryCharge',
      'donation',
      'total',
      'orderNumber',
    ]);
    expect(rows.map((row) => [row[0], row[6], row[7], row[9]])).toEqual([
      [String(first.ref), 'Agenda été', '2', '25.00'],
      [String(first.ref), `'=HYPERLINK("x")`, '1', '1.00'],
    ]);
  });

  it('totals items and amounts per product and currency over a period', async () => {
    const { headers } = await seedSales();
    const today = calendarDay(new Date(), DEFAULT_TIME_ZONE); // the organisation's day (docs/decisions/012)
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
    const french = await ctx.app.inject({
      url: `/api/sales/salecount?from=${today}&to=${today}&dialect=excel-fr`,
      headers,
    });
    expect(french.body).toContain('\nAgenda été;€;2;25,00;1\n');
    const unknown = await ctx.app.inject({
      url: `/api/sales/salecount?from=${today}&to=${today}&dialect=EXCEL-FR`,
      headers,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([expect.objectContaining({ path: 'dialect' })]);
  });
});
