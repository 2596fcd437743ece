import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asAdministrator } from '../../../test/api.ts';
import { useTestApp } from '../../../test/context.ts';
import {
  buildSale,
  buildSubscriber,
  insertDonation,
  insertProduct,
  insertSale,
  insertSubscribers,
  renameSubscriber,
} from '../../../test/factories.ts';
import { overlappingTransactions } from '../../../test/transactions.ts';
import { queryRows } from '../../db/client.ts';
import { donations } from '../donations/donations.table.ts';
import { newestOfEachName } from './copied-last-name.ts';

const ctx = useTestApp();

/** The copied last names of the gifts and sales `ids` (migration 0060), by id. */
async function copiedNames(table: 'donations' | 'sales', ids: number[]) {
  const rows = await queryRows<{ id: number; name: string }>(
    ctx.database.db,
    sql`select id, subscriber_search_last_name as name from ${sql.identifier(table)}
         where id = any(${`{${ids.join(',')}}`}::int[]) order by id`,
  );
  return rows.map((row) => row.name);
}

type Page = { count: number; countIsExact: boolean; models: Array<{ id: number }> };

/** Inserts `count` gifts of `subscriberId` straight into the table, one a day back from 2026-06-30. */
async function insertGifts(subscriberId: number, count: number, db = ctx.database.db) {
  await db.execute(sql`
    insert into donations (subscriber_id, amount, currency_id, donation_date, added_by)
    select ${subscriberId}, 5 + n % 50, 1, date '2026-06-30' - (n % 900), 'Test' from generate_series(1, ${count}) as n`);
}

/** The ids of `where`'s gifts, newest first, `listlength` from the `listfrom`th: what a page must be. */
async function expectedPage(where: ReturnType<typeof sql>, listfrom: number, listlength: number) {
  const rows = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`select d.id from donations d join subscribers s on s.id = d.subscriber_id where ${where}
        order by d.donation_date desc, d.id desc limit ${listlength} offset ${listfrom - 1}`,
  );
  return rows.map((row) => Number(row.id));
}

describe('the subscriber’s last name copied onto gifts and sales', () => {
  it('follows inserts, renames and moves, and cannot be written otherwise', async () => {
    const api = await asAdministrator(ctx);
    const [durand, martin] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Durand' }),
      buildSubscriber({ lastName: 'Martin' }),
    ]);
    if (!durand || !martin) throw new Error('subscribers not created');
    const gift = await insertDonation(ctx, durand.id, { amount: 10 });
    const item = await insertProduct(ctx, { euroPrice: 12, swissPrice: 12 });
    const sale = await insertSale(
      ctx,
      buildSale(martin.id, [{ productId: item.id, quantity: 1, euroUnitPrice: 12, swissUnitPrice: 12 }]),
    );
    expect(await copiedNames('donations', [gift.id])).toEqual(['durand']);
    expect(await copiedNames('sales', [sale.id])).toEqual(['martin']);

    // Renamed through the form: the sale takes the new name, and the searches find it by it.
    await renameSubscriber(ctx, martin.id, 'Durandière');
    expect(await copiedNames('sales', [sale.id])).toEqual(['durandiere']);
    const sales = await api.expectStatus<Array<{ id: number }>>(
      200,
      'GET',
      '/api/sales?listfrom=1&listlength=50&name=urandi',
    );
    expect(sales.map((row) => row.id)).toEqual([sale.id]);
    expect(
      await api.expectStatus<Array<unknown>>(200, 'GET', '/api/sales?listfrom=1&listlength=50&name=mar'),
    ).toEqual([]);

    // Moved to another subscriber (as a merge does): the gift takes that subscriber's name.
    await ctx.database.db.execute(
      sql`update donations set subscriber_id = ${martin.id} where id = ${gift.id}`,
    );
    expect(await copiedNames('donations', [gift.id])).toEqual(['durandiere']);
    const gifts = await api.expectStatus<Page>(200, 'GET', '/api/donations?listfrom=1&listlength=50&name=du');
    expect(gifts.models.map((row) => row.id)).toEqual([gift.id]);

    // Written directly: the subscriber's name is kept.
    await ctx.database.db.execute(sql`update donations set subscriber_search_last_name = 'someone else'`);
    await ctx.database.db.execute(sql`update sales set subscriber_search_last_name = 'someone else'`);
    expect(await copiedNames('donations', [gift.id])).toEqual(['durandiere']);
    expect(await copiedNames('sales', [sale.id])).toEqual(['durandiere']);
  });

  it('gives a gift recorded during a rename the name that commits last', async () => {
    const { db } = ctx.database;
    const [someone] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Avant' })]);
    if (!someone) throw new Error('subscriber not created');
    // Each order: the gift first, then the rename; and the reverse.
    for (const giftFirst of [true, false]) {
      await db.execute(sql`delete from donations`);
      await db.execute(sql`update subscribers set last_name = 'Avant', search_last_name = 'avant'`);
      const rename = sql`update subscribers set last_name = 'Après', search_last_name = 'apres' where id = ${someone.id}`;
      // The second waits for the first's lock of the subscriber.
      await overlappingTransactions(
        ctx.database,
        (tx) => (giftFirst ? insertGifts(someone.id, 1, tx) : tx.execute(rename)),
        (tx) => (giftFirst ? tx.execute(rename) : insertGifts(someone.id, 1, tx)),
      );
      const [row] = await queryRows<{ name: string }>(
        db,
        sql`select subscriber_search_last_name as name from donations`,
      );
      expect(row?.name, `gift recorded ${giftFirst ? 'before' : 'after'} the rename`).toBe('apres');
    }
  });

  it('pages a name with more gifts than are counted exactly from each name’s newest gifts', async () => {
    const api = await asAdministrator(ctx);
    const [leclerc, leclercq, other] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Leclerc' }),
      buildSubscriber({ lastName: 'Leclercq' }),
      buildSubscriber({ lastName: 'Martin' }),
    ]);
    if (!leclerc || !leclercq || !other) throw new Error('subscribers not created');
    await insertGifts(leclerc.id, 6_000);
    await insertGifts(leclercq.id, 4_500);
    await insertGifts(other.id, 300);
    const named = sql`s.search_last_name like '%lec%'`;

    const first = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/donations?listfrom=1&listlength=50&name=lec',
    );
    // Counted exactly within the count's time budget, else estimated.
    if (first.countIsExact) expect(first.count).toBe(10_500);
    else expect(first.count).toBeGreaterThanOrEqual(10_000);
    expect(first.models.map((row) => row.id)).toEqual(await expectedPage(named, 1, 50));
    const third = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/donations?listfrom=101&listlength=50&name=LEC',
    );
    expect(third.models.map((row) => row.id)).toEqual(await expectedPage(named, 101, 50));
    // Too deep for merging each name's newest gifts (2 names × 10,050): walked along the dates.
    const deep = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/donations?listfrom=10001&listlength=50&name=lec',
    );
    expect(deep.models.map((row) => row.id)).toEqual(await expectedPage(named, 10_001, 50));
    const withAmount = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/donations?listfrom=51&listlength=50&name=lec&amountMin=40',
    );
    expect(withAmount.models.map((row) => row.id)).toEqual(
      await expectedPage(sql`${named} and d.amount > 40`, 51, 50),
    );

    // Merged from the names' newest gifts, the same page; too many names for the page: left to the walk.
    const page = { listfrom: 51, listlength: 50 };
    const names = ['leclerc', 'leclercq'];
    const merge = (listed: string[]) =>
      newestOfEachName(ctx.database.db, {
        from: donations,
        name: donations.subscriberSearchLastName,
        date: donations.donationDate,
        id: donations.id,
        names: listed,
        where: sql`${donations.amount} < 30`,
        page,
      });
    expect(await merge(names)).toEqual(await expectedPage(sql`${named} and d.amount < 30`, 51, 50));
    expect(await merge([])).toEqual([]);
    expect(await merge(Array.from({ length: 300 }, (_, n) => `name ${n}`))).toBeUndefined();
  });
});
