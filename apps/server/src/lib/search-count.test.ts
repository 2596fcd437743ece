import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, login, type TestContext, useTestApp } from '../../test/context.ts';
import { roundEstimate } from './search-count.ts';

const ctx = useTestApp();

/**
 * 20,050 subscribers straight into the table (10 of them named Durand, the others Abonné11 to
 * Abonné20050), and one gift from each.
 */
async function seedBeyondTheExactLimit(context: TestContext) {
  const currency = sql.raw("(select id from currencies where name = 'EURO')");
  await context.database.db.execute(sql`
    insert into subscribers (first_name, last_name, currency_id, search_first_name, search_last_name)
    select 'Prénom' || n, case when n <= 10 then 'Durand' else 'Abonné' || n end, ${currency},
           'prenom' || n, case when n <= 10 then 'durand' else 'abonne' || n end
      from generate_series(1, 20050) as n`);
  await context.database.db.execute(sql`
    insert into donations (subscriber_id, amount, currency_id, donation_date, notes, added_by)
    select id, 10, currency_id, '2025-06-01', '', 'Administrator' from subscribers`);
}

async function search(app: TestContext['app'], url: string) {
  const response = await app.inject({ method: 'GET', url, headers: bearer((await login(ctx)).id_token) });
  expect(response.statusCode).toBe(200);
  return response.json() as { count: number; countIsExact: boolean; models: unknown[] };
}

describe('search counts beyond 10,000 matches', () => {
  it('are exact when counting fits the time budget', async () => {
    await seedBeyondTheExactLimit(ctx);
    const app = await ctx.build({ config: { SEARCH_COUNT_BUDGET_MS: '10000' } });
    const subscribers = await search(app, '/api/subscribers/?listfrom=1&listlength=50&status=0');
    expect(subscribers).toMatchObject({ count: 20_050, countIsExact: true });
    expect(subscribers.models).toHaveLength(50);
    const donations = await search(app, '/api/donations?listfrom=1&listlength=50');
    expect(donations).toMatchObject({ count: 20_050, countIsExact: true });
    // A name anywhere: collected, then counted in full through the list of names.
    const byName = await search(app, '/api/subscribers/?listfrom=1&listlength=50&name=bonn');
    expect(byName).toMatchObject({ count: 20_040, countIsExact: true });
    const giftsByName = await search(app, '/api/donations?listfrom=1&listlength=50&name=bonn');
    expect(giftsByName).toMatchObject({ count: 20_040, countIsExact: true });
  });

  it('are estimates, marked as such, when there is no time to count; up to 10,000 they stay exact', async () => {
    await seedBeyondTheExactLimit(ctx);
    const app = await ctx.build({ config: { SEARCH_COUNT_BUDGET_MS: '0' } });
    for (const url of [
      '/api/subscribers/?listfrom=1&listlength=50&status=0',
      '/api/donations?listfrom=1&listlength=50',
    ]) {
      const estimated = await search(app, url);
      expect(estimated.countIsExact, url).toBe(false);
      // The planner's figure, never below what was counted, rounded to two significant digits.
      expect(estimated.count, url).toBeGreaterThanOrEqual(10_000);
      expect(estimated.count, url).toBe(roundEstimate(estimated.count));
      expect(estimated.models, url).toHaveLength(50);
    }
    const few = await search(app, '/api/subscribers/?listfrom=1&listlength=50&name=durand');
    expect(few).toMatchObject({ count: 10, countIsExact: true });
    // Found anywhere, the few are collected and then sorted; found by prefix, they are read along the
    // name index: one order either way.
    const byPrefix = await search(app, '/api/subscribers/?listfrom=1&listlength=50&name=du');
    expect(byPrefix.models).toEqual(few.models);
    expect(few.models.slice(0, 3).map((model) => (model as { name: string }).name)).toEqual([
      'Prénom1 Durand',
      'Prénom10 Durand',
      'Prénom2 Durand',
    ]);
    // A later page of the few is cut from the same sorted matches.
    const laterPage = await search(app, '/api/subscribers/?listfrom=4&listlength=3&name=durand');
    expect(laterPage).toMatchObject({ count: 10, countIsExact: true });
    expect(laterPage.models).toEqual(few.models.slice(3, 6));
    // Over 10,000 but as many as the planner expects, and no more than 20,000: still collected,
    // counted exactly and sorted (Abonné11–19, 100–199, 1000–1999 and 10000–19999).
    const some = await search(app, '/api/subscribers/?listfrom=1&listlength=50&name=abonne1');
    expect(some).toMatchObject({ count: 11_109, countIsExact: true });
    expect(some.models.slice(0, 3).map((model) => (model as { name: string }).name)).toEqual([
      'Prénom100 Abonné100',
      'Prénom1000 Abonné1000',
      'Prénom10000 Abonné10000',
    ]);
    // A name alone is counted from the counts of its names: exact however many, without the time.
    const byName = await search(app, '/api/subscribers/?listfrom=1&listlength=50&name=bonn');
    expect(byName).toMatchObject({ count: 20_040, countIsExact: true });
    expect((byName.models[0] as { name: string }).name).toBe('Prénom100 Abonné100');
    // With another filter, too many to collect: estimated, and the page walks the name order.
    const many = await search(app, '/api/subscribers/?listfrom=1&listlength=50&name=bonn&status=1');
    expect(many.countIsExact).toBe(false);
    expect(many.models).toHaveLength(50);
    expect(many.models).toEqual(byName.models);
    const manyGifts = await search(app, '/api/donations?listfrom=1&listlength=50&name=bonn');
    expect(manyGifts.countIsExact).toBe(false);
    const manyGiftIds = manyGifts.models.map((model) => (model as { id: number }).id);
    expect(manyGiftIds).toHaveLength(50);
    expect(manyGiftIds).toEqual([...manyGiftIds].sort((a, b) => b - a));
    const fewGifts = await search(app, '/api/donations?listfrom=1&listlength=50&name=durand');
    expect(fewGifts).toMatchObject({ count: 10, countIsExact: true });
    // Collected and sorted, gifts of one day still come last recorded first.
    const giftIds = fewGifts.models.map((model) => (model as { id: number }).id);
    expect(giftIds).toHaveLength(10);
    expect(giftIds).toEqual([...giftIds].sort((a, b) => b - a));
  });
});

describe('roundEstimate', () => {
  it('keeps two significant digits', () => {
    expect(roundEstimate(251_234)).toBe(250_000);
    expect(roundEstimate(10_001)).toBe(10_000);
    expect(roundEstimate(1_049_999)).toBe(1_000_000);
    expect(roundEstimate(1_050_000)).toBe(1_100_000);
    expect(roundEstimate(87)).toBe(87);
  });
});
