import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asAdministrator } from '../../../test/api.ts';
import { useTestApp } from '../../../test/context.ts';
import {
  buildSubscriber,
  insertDonation,
  insertSubscribers,
  renameSubscriber,
} from '../../../test/factories.ts';
import { overlappingTransactions } from '../../../test/transactions.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

/** The names of `subscriber_last_names` (migration 0056), sorted. */
async function listedNames() {
  const rows = await queryRows<{ name: string }>(
    ctx.database.db,
    sql`select search_last_name as name from subscriber_last_names order by 1`,
  );
  return rows.map((row) => row.name);
}

type Page = { count: number; countIsExact: boolean; models: Array<{ id: number }> };
const ids = (page: Page) => page.models.map((model) => model.id).sort((a, b) => a - b);

/**
 * Inserts a subscriber named `lastName` straight into the table, as a bulk import does; returns its id.
 * Off the mailing list, so that no count per country is written: its row lock would make concurrent
 * writers wait for each other whatever the list of names does.
 */
async function insertNamed(lastName: string, db = ctx.database.db) {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into subscribers (first_name, last_name, currency_id, search_first_name, search_last_name, inactive)
        values ('Zoé', ${lastName}, 1, 'zoe', ${lastName.toLowerCase()}, true) returning id`,
  );
  return Number(row?.id);
}

describe('the list of last names searched anywhere', () => {
  it('finds a name anywhere through the list, and follows renames, erasures and bulk inserts', async () => {
    const api = await asAdministrator(ctx);
    const [durand, leDurandel, martin] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Durand' }),
      buildSubscriber({ lastName: 'Le Durandel' }),
      buildSubscriber({ lastName: 'Martin' }),
    ]);
    if (!durand || !leDurandel || !martin) throw new Error('subscribers not created');
    await insertDonation(ctx, durand.id, { amount: 10 });
    await insertDonation(ctx, leDurandel.id, { amount: 20 });
    expect(await listedNames()).toEqual(['durand', 'le durandel', 'martin']);

    const subscribers = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/subscribers/?listfrom=1&listlength=50&name=urand',
    );
    expect(subscribers.count).toBe(2);
    expect(ids(subscribers)).toEqual([durand.id, leDurandel.id]);
    const gifts = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/donations?listfrom=1&listlength=50&name=URAND',
    );
    expect(gifts.count).toBe(2);

    // Renamed: the old name goes when nobody bears it any more, the new one is listed and found.
    await renameSubscriber(ctx, martin.id, 'Durandière');
    expect(await listedNames()).toEqual(['durand', 'durandiere', 'le durandel']);
    const renamed = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/subscribers/?listfrom=1&listlength=50&name=urand',
    );
    expect(ids(renamed)).toEqual([durand.id, leDurandel.id, martin.id]);
    expect(
      (await api.expectStatus<Page>(200, 'GET', '/api/subscribers/?listfrom=1&listlength=50&name=artin'))
        .count,
    ).toBe(0);

    // Erased: the name is no longer kept anywhere, the search no longer finds it.
    await api.expectStatus(204, 'POST', `/api/subscribers/${leDurandel.id}/anonymise`, {
      reason: 'Asked by letter',
    });
    expect(await listedNames()).not.toContain('le durandel');
    const afterErasure = await api.expectStatus<Page>(
      200,
      'GET',
      '/api/donations?listfrom=1&listlength=50&name=urand',
    );
    expect(afterErasure.count).toBe(1);

    // Inserted in bulk, deleted in bulk, the table emptied: the list follows.
    await ctx.database.db.execute(sql`
      insert into subscribers (first_name, last_name, currency_id, search_first_name, search_last_name)
      select 'Prénom', 'Bulk' || (n % 3), 1, 'prenom', 'bulk' || (n % 3) from generate_series(1, 30) as n`);
    expect(await listedNames()).toEqual(expect.arrayContaining(['bulk0', 'bulk1', 'bulk2', 'durand']));
    await ctx.database.db.execute(sql`delete from subscribers where search_last_name in ('bulk0', 'bulk1')`);
    const afterDelete = await listedNames();
    expect(afterDelete).toContain('bulk2');
    expect(afterDelete).not.toContain('bulk0');
    await ctx.database.db.execute(sql`truncate subscribers cascade`);
    expect(await listedNames()).toEqual([]);
  });

  it('pages a name with more bearers than are collected in name order, through its listed names', async () => {
    const api = await asAdministrator(ctx);
    const { db } = ctx.database;
    // 21,000 bearers of four names containing "mar" (two countries; more than are collected), and others.
    await db.execute(sql`
      insert into subscribers (first_name, last_name, currency_id, country_id, search_first_name, search_last_name)
      select 'Prénom ' || n, name, 1, 1 + n % 2, 'prenom ' || lpad(n::text, 5, '0'), lower(name)
        from generate_series(1, 21000) as n,
             lateral (select (array['Amar', 'Marty', 'Dumarais', 'Omar'])[1 + n % 4] as name) as named`);
    await db.execute(sql`
      insert into subscribers (first_name, last_name, currency_id, search_first_name, search_last_name)
      select 'Autre', name, 1, 'autre', lower(name) from unnest(array['Abel', 'Martin', 'Zola']) as name`);
    const expected = async (country: number | undefined, listfrom: number) => {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`select id from subscribers where not hidden and search_last_name like '%mar%'
              and (${country ?? null}::int is null or country_id = ${country ?? null}::int)
            order by search_last_name, search_first_name, id limit 50 offset ${listfrom - 1}`,
      );
      return rows.map((row) => Number(row.id));
    };
    const pageIds = async (query: string) =>
      (await api.expectStatus<Page>(200, 'GET', `/api/subscribers/?listlength=50&${query}`)).models.map(
        (model) => model.id,
      );
    expect(await pageIds('listfrom=1&name=mar')).toEqual(await expected(undefined, 1));
    expect(await pageIds('listfrom=5001&name=MAR')).toEqual(await expected(undefined, 5001));
    expect(await pageIds('listfrom=51&name=mar&country=2')).toEqual(await expected(2, 51));
  });

  it('keeps a name whose last bearer is removed while another transaction adds a new bearer', async () => {
    const { db } = ctx.database;
    // Each order of the two transactions: the new bearer first, then the removal; and the reverse.
    for (const addFirst of [true, false]) {
      await db.execute(sql`truncate subscribers cascade`);
      const old = await insertNamed('Zorglub');
      // The second waits on the first's lock of the name.
      await overlappingTransactions(
        ctx.database,
        (tx) =>
          addFirst ? insertNamed('Zorglub', tx) : tx.execute(sql`delete from subscribers where id = ${old}`),
        (tx) =>
          addFirst ? tx.execute(sql`delete from subscribers where id = ${old}`) : insertNamed('Zorglub', tx),
      );
      const [bearers] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from subscribers where search_last_name = 'zorglub'`,
      );
      expect(bearers?.n, `new bearer added ${addFirst ? 'before' : 'after'} the removal`).toBe(1);
      expect(await listedNames()).toEqual(['zorglub']);
    }
  });
});
