import { sql } from 'drizzle-orm';
import { type Executor, intArrayLiteral, queryRows, textArrayLiteral } from '../../db/client.ts';
import { lastNameSql, subscriberNameCounts, subscribers } from './subscribers.table.ts';

/** A listed last name and how many visible subscribers bear it (in the searched country, if any). */
export type NameBearers = { name: string; bearers: number };

/**
 * The listed last names containing `value` (3 characters or more, {@link lastNameSql}) that visible
 * subscribers bear, with how many bear each, in the register's order of last names; only those in
 * country `countryId` when given (part 2 §7 Subscribers). Read from the names' trigram index and the
 * sums of {@link subscriberNameCounts}: a few hundred index entries where counting the bearers read
 * every one of them.
 */
export async function namesWithBearers(
  db: Executor,
  value: string,
  countryId: number | undefined,
): Promise<NameBearers[]> {
  const counts = subscriberNameCounts;
  const rows = await queryRows<{ name: string; bearers: number | string }>(
    db,
    sql`select ${counts.searchLastName} as name, sum(${counts.bearers}) as bearers
          from ${counts}
         where ${lastNameSql(value, { throughNameList: true, column: counts.searchLastName })}${
           countryId === undefined ? sql`` : sql` and ${counts.countryId} = ${countryId}`
         }
         group by ${counts.searchLastName}
        having sum(${counts.bearers}) > 0
         order by ${counts.searchLastName}`,
  );
  return rows.map((row) => ({ name: row.name, bearers: Number(row.bearers) }));
}

/**
 * The ids of one page (`listlength` rows from the `listfrom`th, 1-based) of the visible bearers of
 * `names` (in the register's order, see {@link namesWithBearers}), in the register's order: first
 * name, then id within each name. Only the names the page overlaps are read, each from the name index
 * from its first row on the page: page 100 of "mar" reads about 50 entries, not 5,000.
 */
export async function pageOfNameBearers(
  db: Executor,
  names: NameBearers[],
  countryId: number | undefined,
  page: { listfrom: number; listlength: number },
): Promise<number[]> {
  const overlapped: Array<{ name: string; skip: number; take: number }> = [];
  let before = 0;
  const start = page.listfrom - 1;
  const end = start + page.listlength;
  for (const { name, bearers } of names) {
    const from = Math.max(start, before);
    const to = Math.min(end, before + bearers);
    if (from < to) overlapped.push({ name, skip: from - before, take: to - from });
    before += bearers;
    if (before >= end) break;
  }
  if (overlapped.length === 0) return [];
  const rows = await queryRows<{ id: number | string }>(
    db,
    sql`select b.id from unnest(${textArrayLiteral(overlapped.map((name) => name.name))}::text[],
                                ${intArrayLiteral(overlapped.map((name) => name.skip))}::int[],
                                ${intArrayLiteral(overlapped.map((name) => name.take))}::int[])
                         with ordinality as n(name, skip, take, place)
        cross join lateral (
          select ${subscribers.id} as id, ${subscribers.searchFirstName} as first_name from ${subscribers}
           where ${subscribers.searchLastName} = n.name and not ${subscribers.hidden}${
             countryId === undefined ? sql`` : sql` and ${subscribers.countryId} = ${countryId}`
           }
           order by ${subscribers.searchFirstName}, ${subscribers.id} offset n.skip limit n.take) as b
        order by n.place, b.first_name, b.id`,
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Folds the delta rows of {@link subscriberNameCounts} of each name and country that has any into one
 * row (`folded`), dropping those no visible subscriber bears. Safe beside writers: it deletes only the
 * rows its snapshot sees and inserts their sum, so a delta committed meanwhile stays, for the next
 * pass. Returns how many rows it removed.
 */
export async function compactSubscriberNameCounts(db: Executor): Promise<number> {
  const [row] = await queryRows<{ removed: number | string }>(
    db,
    sql`with touched as (
          select distinct search_last_name, country_id from subscriber_name_counts where not folded),
        removed as (
          delete from subscriber_name_counts c using touched t
           where c.search_last_name = t.search_last_name and c.country_id = t.country_id
          returning c.search_last_name, c.country_id, c.bearers),
        summed as (
          insert into subscriber_name_counts (search_last_name, country_id, bearers, folded)
          select search_last_name, country_id, sum(bearers), true from removed
           group by 1, 2 having sum(bearers) <> 0
          returning 1)
        select (select count(*) from removed) - (select count(*) from summed) as removed`,
  );
  return Number(row?.removed ?? 0);
}

/** Whether any delta row waits to be folded ({@link compactSubscriberNameCounts}): one index probe. */
export async function hasUnfoldedNameCounts(db: Executor): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from subscriber_name_counts where not folded limit 1`,
  );
  return rows.length > 0;
}
