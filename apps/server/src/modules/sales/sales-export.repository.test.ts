import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { queryRows } from '../../db/client.ts';
import { createSalesExportRepository } from './sales-export.repository.ts';

const ctx = useTestApp();

/** Inserts one sale of `subscriberId` added at `addedOn` (an SQL timestamptz literal); its id. */
async function insertSale(subscriberId: number, ref: number, addedOn: string) {
  const [row] = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`insert into sales (ref, subscriber_id, full_name, currency_id, swiss_sale, discount_percentage,
          sub_total, discount_amount, donation, delivery_charge, total, include_thanks,
          include_payment_terms, payment_term_days, added_by, added_on)
        values (${ref}, ${subscriberId}, 'M. Test', 1, false, 0, 10, 0, 0, 0, 10, false, false, 30, 'Test',
          ${addedOn}::timestamptz)
        returning id`,
  );
  if (!row) throw new Error('insert into sales returned no row');
  return row.id;
}

/** Inserts the lines of a sale: one per `[product id, quantity, unit price]`, in that order. */
async function insertLines(saleId: number, lines: Array<[number, number, string]>) {
  for (const [position, [productId, quantity, unitPrice]] of lines.entries()) {
    await ctx.database.db.execute(sql`
      insert into sale_lines (sale_id, position, product_id, product_name, quantity, euro_unit_price,
        swiss_unit_price, unit_price, line_total)
      values (${saleId}, ${position}, ${productId}, ${`Product ${productId}`}, ${quantity}, ${unitPrice},
        ${unitPrice}, ${unitPrice}, (${unitPrice}::numeric * ${quantity}))`);
  }
}

describe('sales export stream', () => {
  it('reads every sale across batches, sales of the same microsecond and millisecond included', async () => {
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    if (!buyer) throw new Error('no subscriber');
    const times = [
      '2026-03-01 10:00:00.123456+00',
      '2026-03-01 10:00:00.123456+00',
      '2026-03-01 10:00:00.123456+00',
      '2026-03-01 10:00:00.123789+00',
      '2026-03-01 10:00:00.123001+00',
      '2026-03-01 10:00:00.123+00',
      '2026-02-28 09:00:00+00',
    ];
    const ids: number[] = [];
    for (const [index, addedOn] of times.entries()) ids.push(await insertSale(buyer.id, index + 1, addedOn));

    const streamed: number[] = [];
    for await (const sale of createSalesExportRepository().streamSales(ctx.database.db, {}, { batchSize: 2 }))
      streamed.push(sale.id);

    // Newest first, ties by id descending; each batch of 2 starts right after the last.
    const [a, b, c, d, e, f, g] = ids;
    expect(streamed).toEqual([d, c, b, a, e, f, g]);
  });

  it('reads each sale with its own lines in order, across batches', async () => {
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    if (!buyer) throw new Error('no subscriber');
    const products = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`insert into products (name, euro_price, swiss_price) values ('A', 1, 1), ('B', 2, 2), ('C', 3, 3)
          returning id`,
    );
    const [a, b, c] = products.map((product) => product.id) as [number, number, number];
    const older = await insertSale(buyer.id, 1, '2026-03-01 10:00:00+00');
    const middle = await insertSale(buyer.id, 2, '2026-03-02 10:00:00+00');
    const newest = await insertSale(buyer.id, 3, '2026-03-03 10:00:00+00');
    await insertLines(older, [
      [c, 1, '3.00'],
      [a, 2, '1.00'],
    ]);
    await insertLines(newest, [
      [b, 3, '2.50'],
      [a, 1, '1.00'],
      [c, 2, '3.00'],
    ]);

    const streamed: Array<[number, Array<[number, number, string]>]> = [];
    for await (const { sale, lines } of createSalesExportRepository().streamSalesWithLines(
      ctx.database.db,
      {},
      { batchSize: 2 },
    )) {
      streamed.push([sale.id, lines.map((line) => [line.productId, line.quantity, line.lineTotal])]);
    }

    expect(streamed).toEqual([
      [
        newest,
        [
          [b, 3, '7.50'],
          [a, 1, '1.00'],
          [c, 2, '6.00'],
        ],
      ],
      [middle, []],
      [
        older,
        [
          [c, 1, '3.00'],
          [a, 2, '2.00'],
        ],
      ],
    ]);
  });

  it('has PostgreSQL write the CSV with COPY, and leaves it to the caller on PGlite', async () => {
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    if (!buyer) throw new Error('no subscriber');
    await insertSale(buyer.id, 7, '2026-03-01 10:00:00+00');
    const repository = createSalesExportRepository();
    const columns = [
      { key: 'ref', header: 'ref' },
      { key: 'fullName', header: 'name' },
    ] as const;
    const copied = await repository.copySalesCsv(ctx.database.db, {}, columns, 'rfc4180');
    const copiedLines = await repository.copySaleLinesCsv(ctx.database.db, {}, columns, 'rfc4180');
    if (ctx.database.kind === 'pglite') {
      expect([copied, copiedLines]).toEqual([undefined, undefined]);
      return;
    }
    const text = async (stream: Readable | undefined) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream ?? []) chunks.push(chunk);
      return Buffer.concat(chunks).toString('utf8');
    };
    expect(await text(copied)).toBe('\ufeffref,name\n7,M. Test\n');
    // The sale has no lines, so no row.
    expect(await text(copiedLines)).toBe('\ufeffref,name\n');
  });
});
