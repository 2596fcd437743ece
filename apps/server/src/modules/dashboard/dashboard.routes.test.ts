import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

async function get(url: string) {
  return ctx.app.inject({ url, headers: bearer((await login(ctx)).id_token) });
}

describe('dashboard', () => {
  it('lists active products at or below their minimum stock', async () => {
    const headers = bearer((await login(ctx)).id_token);
    const add = (name: string, currentStock: number, minStockAlert: number, active = true) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/products',
        headers,
        payload: { name, euroPrice: 1, swissPrice: 1, active, currentStock, minStockAlert },
      });
    await add('Zinc mugs', 2, 5);
    await add('Atlas', 5, 5);
    await add('Plenty', 50, 5);
    await add('Retired', 0, 5, false);
    const deleted = (await add('Deleted', 0, 5)).json();
    await ctx.app.inject({ method: 'DELETE', url: `/api/products/${deleted.id}`, headers });

    const response = await get('/api/dash/prods');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      keyedData: [
        { key: 'Atlas', value: 5 },
        { key: 'Zinc mugs', value: 2 },
      ],
    });
  });

  it('counts subscribers on the mailing list and not deleted, per country', async () => {
    await ctx.database.db.execute(sql`
      insert into subscribers (first_name, last_name, currency_id, country_id, inactive, hidden) values
        ('A', 'A', 1, 1, false, false), ('B', 'B', 1, 1, false, false), ('C', 'C', 1, 2, false, false),
        ('D', 'D', 1, 2, true, false), ('E', 'E', 1, 2, false, true), ('F', 'F', 1, null, false, false)`);
    const response = await get('/api/dash/subs');
    expect(response.json()).toEqual({ labels: ['France', 'No country', 'Suisse'], data: [2, 1, 1] });
  });

  it('follows every change of a subscriber at once: country, status, deletion, removal', async () => {
    const { db } = ctx.database;
    await db.execute(sql`
      insert into subscribers (first_name, last_name, currency_id, country_id, inactive, hidden) values
        ('A', 'A', 1, 1, false, false), ('B', 'B', 1, 1, false, false), ('C', 'C', 1, 2, false, false),
        ('D', 'D', 1, 2, true, false), ('E', 'E', 1, 2, false, true), ('F', 'F', 1, null, false, false)`);
    await db.execute(sql`update subscribers set country_id = 2 where last_name = 'A'`);
    await db.execute(sql`update subscribers set inactive = true where last_name = 'B'`);
    await db.execute(sql`update subscribers set hidden = false, country_id = null where last_name = 'E'`);
    await db.execute(sql`update subscribers set inactive = false where last_name = 'D'`);
    await db.execute(sql`update subscribers set town = 'Genève' where last_name = 'C'`);
    await db.execute(sql`delete from subscribers where last_name = 'F'`);
    // A transaction that fails leaves the counts as they were.
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update subscribers set hidden = true where last_name = 'C'`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    expect((await get('/api/dash/subs')).json()).toEqual({
      labels: ['Suisse', 'No country'],
      data: [3, 1],
    });
    const counted = await queryRows(
      db,
      sql`
      select coalesce(country_id, 0) as "countryId", count(*)::int as active from subscribers
       where not inactive and not hidden group by 1 order by 1`,
    );
    const kept = await queryRows(
      db,
      sql`select country_id as "countryId", active from subscriber_country_counts where active > 0 order by 1`,
    );
    expect(kept).toEqual(counted);

    await db.execute(sql`truncate subscribers cascade`);
    expect((await get('/api/dash/subs')).json()).toEqual({ labels: [], data: [] });
  });

  it('stays exact when subscribers move between countries in opposite directions at once', async () => {
    const { db } = ctx.database;
    await db.execute(sql`
      insert into subscribers (first_name, last_name, currency_id, country_id)
      select 'Mover', 'M' || n, 1, 1 + n % 2 from generate_series(1, 20) n`);
    const movers = await queryRows<{ id: number; countryId: number }>(
      db,
      sql`select id, country_id as "countryId" from subscribers order by id`,
    );
    await Promise.all(
      movers.map((mover) =>
        db.transaction(async (tx) => {
          await tx.execute(
            sql`update subscribers set country_id = ${3 - mover.countryId} where id = ${mover.id}`,
          );
        }),
      ),
    );
    expect((await get('/api/dash/subs')).json()).toEqual({ labels: ['France', 'Suisse'], data: [10, 10] });
  });

  it('needs a signed-in user', async () => {
    expect((await ctx.app.inject({ url: '/api/dash/prods' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/api/dash/subs' })).statusCode).toBe(401);
  });
});
