import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asAdministrator } from '../../../test/api.ts';
import { useTestApp } from '../../../test/context.ts';
import { queryRows } from '../../db/client.ts';
import { compactSubscriberNameCounts, hasUnfoldedNameCounts } from './subscriber-name-counts.ts';

const ctx = useTestApp();

type Counted = { name: string; country: number; bearers: number };

/** The sums of `subscriber_name_counts` (migration 0062) per name and country, zero sums left out. */
async function summedCounts(): Promise<Counted[]> {
  return queryRows<Counted>(
    ctx.database.db,
    sql`select search_last_name as name, country_id as country, sum(bearers)::int as bearers
          from subscriber_name_counts group by 1, 2 having sum(bearers) <> 0 order by 1, 2`,
  );
}

/** The visible subscribers per folded last name and country (0: none), counted from the register. */
async function registerCounts(): Promise<Counted[]> {
  return queryRows<Counted>(
    ctx.database.db,
    sql`select search_last_name as name, coalesce(country_id, 0) as country, count(*)::int as bearers
          from subscribers where not hidden group by 1, 2 order by 1, 2`,
  );
}

const countRows = async () =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from subscriber_name_counts`,
    )
  )[0]?.n;

/**
 * Inserts `count` subscribers straight into the table, as an import does: last names drawn from a few
 * that share fragments, countries 1, 2 or none, one in five deleted, off the mailing list (so that no
 * count per country is written).
 */
async function insertRegister(count: number, seed: number) {
  await ctx.database.db.execute(sql`
    insert into subscribers (first_name, last_name, currency_id, country_id, hidden, inactive, search_first_name, search_last_name)
    select 'Prénom', name, 1, nullif((n * 7 + ${seed}) % 3, 0), (n + ${seed}) % 5 = 0, true,
           'prenom ' || lpad(((n * 37 + ${seed}) % 101)::text, 3, '0'), lower(name)
      from generate_series(1, ${count}) as n,
           lateral (select (array['Martin', 'Marty', 'Amar', 'Dumas', 'Lamarre', 'Omar', 'Zola'])[1 + (n * 13 + ${seed}) % 7] as name) as named`);
}

describe('the counts of last names', () => {
  it('follow inserts, deletions, renames, moves and restorations, and keep their sums when folded', async () => {
    const { db } = ctx.database;
    await insertRegister(400, 1);
    expect(await summedCounts()).toEqual(await registerCounts());

    // Deleted and restored (the `hidden` flag), renamed, moved to another country or to none.
    await db.execute(sql`update subscribers set hidden = true where id % 7 = 0`);
    await db.execute(sql`update subscribers set hidden = false where id % 11 = 0`);
    await db.execute(sql`update subscribers set search_last_name = 'durand' where id % 13 = 0`);
    await db.execute(
      sql`update subscribers set country_id = case when id % 2 = 0 then null else 2 end where id % 17 = 0`,
    );
    // A change of everything at once, and a change of nothing counted (no delta row written).
    await db.execute(
      sql`update subscribers set search_last_name = 'zorglub', country_id = 1, hidden = not hidden where id % 19 = 0`,
    );
    const rowsBefore = await countRows();
    await db.execute(sql`update subscribers set copies = copies + 1, search_first_name = 'x'`);
    expect(await countRows()).toBe(rowsBefore);
    expect(await summedCounts()).toEqual(await registerCounts());

    // Removed for good, and a subscriber deleted through the API.
    await db.execute(sql`delete from subscribers where id % 23 = 0`);
    const [visible] = await queryRows<{ id: number }>(
      db,
      sql`select id from subscribers where not hidden limit 1`,
    );
    const api = await asAdministrator(ctx);
    await api.expectStatus(204, 'DELETE', `/api/subscribers/${visible?.id}`);
    expect(await summedCounts()).toEqual(await registerCounts());

    // Folded: one row per name and country still borne, the same sums.
    const groups = (await registerCounts()).length;
    expect(await countRows()).toBeGreaterThan(groups);
    expect(await hasUnfoldedNameCounts(db)).toBe(true);
    expect(await compactSubscriberNameCounts(db)).toBeGreaterThan(0);
    expect(await hasUnfoldedNameCounts(db)).toBe(false);
    expect(await countRows()).toBe(groups);
    expect(await summedCounts()).toEqual(await registerCounts());
    expect(await compactSubscriberNameCounts(db)).toBe(0);

    await db.execute(sql`truncate subscribers cascade`);
    expect(await countRows()).toBe(0);
  });

  it('are written by concurrent writers without waiting, and folded without losing an open transaction’s', async () => {
    const { db } = ctx.database;
    // PGlite runs one transaction at a time: there is nothing concurrent to check.
    if (ctx.database.kind !== 'postgres') return;
    await insertRegister(50, 2);
    // Another bearer of the same name, and a folding, on other connections while a transaction that
    // added a bearer is still open: neither waits for it (the test would time out), and the folding
    // leaves its delta row alone.
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into subscribers (first_name, last_name, currency_id, inactive, search_first_name, search_last_name)
        values ('Zoé', 'Martin', 1, true, 'zoe', 'martin')`);
      await db.execute(sql`
        insert into subscribers (first_name, last_name, currency_id, inactive, search_first_name, search_last_name)
        values ('Léa', 'Martin', 1, true, 'lea', 'martin')`);
      await compactSubscriberNameCounts(db);
    });
    expect(await hasUnfoldedNameCounts(db)).toBe(true);
    expect(await summedCounts()).toEqual(await registerCounts());
  });

  it('give a name search its exact count and the same pages as reading every match', async () => {
    const api = await asAdministrator(ctx);
    const { db } = ctx.database;
    await insertRegister(700, 3);
    await db.execute(sql`update subscribers set hidden = true where id % 9 = 0`);
    type Page = { count: number; countIsExact: boolean; models: Array<{ id: number }> };
    for (const [name, country] of [
      ['mar', undefined],
      ['MAR', 2],
      ['arty', 1],
      ['dum', undefined],
      ['ola', 2],
      ['xyz', undefined],
    ] as const) {
      const where = sql`not hidden and search_last_name like ${`%${name.toLowerCase()}%`}
                        and (${country ?? null}::int is null or country_id = ${country ?? null}::int)`;
      const [total] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from subscribers where ${where}`,
      );
      // Pages that start inside a name, on a boundary between two names, at the last match and past it.
      for (const listfrom of [1, 17, 101, 160, Math.max(1, (total?.n ?? 0) - 3), (total?.n ?? 0) + 1]) {
        const expected = await queryRows<{ id: number }>(
          db,
          sql`select id from subscribers where ${where}
              order by search_last_name, search_first_name, id limit 30 offset ${listfrom - 1}`,
        );
        const page = await api.expectStatus<Page>(
          200,
          'GET',
          `/api/subscribers/?listfrom=${listfrom}&listlength=30&name=${name}${country ? `&country=${country}` : ''}`,
        );
        expect({ count: page.count, countIsExact: page.countIsExact }, `${name} ${country}`).toEqual({
          count: total?.n,
          countIsExact: true,
        });
        expect(
          page.models.map((model) => model.id),
          `${name} ${country} from ${listfrom}`,
        ).toEqual(expected.map((row) => Number(row.id)));
      }
    }
  });
});
