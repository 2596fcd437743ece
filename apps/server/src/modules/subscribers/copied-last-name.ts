import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Executor, queryRows, textArrayLiteral } from '../../db/client.ts';
import { likeName } from '../../lib/search-text.ts';
import { lastNameSql, subscriberLastNames } from './subscribers.table.ts';

/**
 * How a gift or a sale matches a last name searched on its copy of its subscriber's folded last name
 * (`subscriber_search_last_name`, kept by triggers, migration 0060; docs/decisions/016): `read`, a name
 * searched anywhere (3 characters or more, see {@link likeName}) as one of the listed names that
 * contain it, read first as an array (the planner then plans as quickly for 2,000 names as for 7,
 * where a list of values took it 60–90 ms), for reading the copy's index name by name; `estimate`,
 * the column compared with the pattern, whose statistics give the planner its expected count, and for
 * walking the dates (an array of names is searched one name after the other for every row). A shorter
 * value is a prefix, a range of the copy's index, either way.
 */
export type CopiedNameUse = 'read' | 'estimate';

/** `column` (a gift's or a sale's copy of its subscriber's folded last name) matches `value` searched. */
export function copiedLastNameSql(column: AnyPgColumn, value: string, use: CopiedNameUse): SQL {
  return lastNameSql(value, { column, throughNameList: use === 'read' });
}

/**
 * The listed last names that contain `value` (read from `subscriber_last_names` and its trigram index),
 * or undefined for a value too short to be searched anywhere (a prefix).
 */
export async function listedLastNames(db: Executor, value: string): Promise<string[] | undefined> {
  const pattern = likeName(value);
  if (!pattern.startsWith('%')) return undefined;
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select ${subscriberLastNames.searchLastName} as name from ${subscriberLastNames}
         where ${subscriberLastNames.searchLastName} like ${pattern}`,
  );
  return rows.map((row) => row.name);
}

/**
 * Up to how many index entries ({@link newestOfEachName}: names × the rows up to the page's end) a page
 * is merged from the names' newest rows rather than found by walking the date order: at a few tenths of
 * a microsecond an entry, about 5 ms.
 */
export const MERGED_ENTRIES_LIMIT = 20_000;

/**
 * The ids of one page of the rows of `from` whose copied last name (`name`) is one of `names` and that
 * match `where`, newest first (`date` descending, then `id`): each name's newest `listfrom - 1 +
 * listlength` rows, read from the index (`name`, `date`, `id`), merged and cut to the page. It reads at
 * most as many entries as there are matches, where walking the date order for "lec" (83,000 gifts among
 * five million) checked 3,000 gifts' donors for page 1 and 300,000 for page 100. Undefined when the names
 * are too many for that ({@link MERGED_ENTRIES_LIMIT}): the caller walks the date order, which then
 * finds its page early.
 */
export async function newestOfEachName(
  db: Executor,
  {
    from,
    name,
    date,
    id,
    names,
    where,
    page,
  }: {
    from: PgTable;
    name: AnyPgColumn;
    date: AnyPgColumn;
    id: AnyPgColumn;
    names: string[];
    where: SQL | undefined;
    page: { listfrom: number; listlength: number };
  },
): Promise<number[] | undefined> {
  const perName = page.listfrom - 1 + page.listlength;
  if (names.length * perName > MERGED_ENTRIES_LIMIT) return undefined;
  if (names.length === 0) return [];
  const rows = await queryRows<{ id: number | string }>(
    db,
    sql`select x.id from unnest(${textArrayLiteral(names)}::text[]) as n(name)
        cross join lateral (
          select ${id} as id, ${date} as at from ${from}
           where ${name} = n.name${where ? sql` and ${where}` : sql``}
           order by ${date} desc, ${id} desc limit ${perName}) as x
        order by x.at desc, x.id desc limit ${page.listlength} offset ${page.listfrom - 1}`,
  );
  return rows.map((row) => Number(row.id));
}
