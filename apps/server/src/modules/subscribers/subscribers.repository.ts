import { DEFAULT_TIME_ZONE, startOfCalendarDay } from '@back-office/contract/calendar';
import type { SubscriberSearchQuery } from '@back-office/contract/subscribers';
import { and, asc, desc, eq, gte, inArray, lt, notExists, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Executor, executeForIds, inIdsPlaceholder, preparedPerConnection } from '../../db/client.ts';
import { collectFewMatches, countSearchMatches, type ManyMatches } from '../../lib/search-count.ts';
import { foldForSearch, likeName, likePrefix, NAME_ANYWHERE_MIN_LENGTH } from '../../lib/search-text.ts';
import { categories, currencies, tags } from '../reference-lists/reference-lists.table.ts';
import { namesWithBearers, pageOfNameBearers } from './subscriber-name-counts.ts';
import { lastNameSql, subscriberHistory, subscribers, subscriberTags } from './subscribers.table.ts';

export type SubscriberRow = typeof subscribers.$inferSelect;
export type SubscriberColumns = Omit<
  typeof subscribers.$inferInsert,
  'id' | 'addedOn' | 'version' | 'updatedAt'
>;

/**
 * A subscriber's row and its tag names in alphabetical order, in one prepared statement: every record
 * opened, saved or checked reads it.
 */
const subscriberByIdStatement = preparedPerConnection((db) =>
  db
    .select({
      row: subscribers,
      // Spelled out: Drizzle leaves columns unqualified in a one-table select, as `"id"` here.
      tags: sql<string[]>`array(
        select t.name from subscriber_tags st inner join tags t on t.id = st.tag_id
        where st.subscriber_id = ${sql.placeholder('id')}
        order by fold_text(t.name))`,
    })
    .from(subscribers)
    .where(eq(subscribers.id, sql.placeholder('id')))
    .prepare('find_subscriber_by_id'),
);

/** Filters of a subscriber search, as the export and the bulk email take them too (part 2 §7). */
export type SubscriberFilter = Omit<SubscriberSearchQuery, 'listfrom' | 'listlength'>;

const present = <T>(value: T | '' | undefined | null): value is T =>
  value !== undefined && value !== null && value !== '';

/**
 * The WHERE clause of a search: deleted subscribers never match; text filters are case- and
 * accent-insensitive, names anywhere in the name from 3 characters on ({@link likeName}), town and
 * postcode as prefixes; `copies` means that many or more; `status` as part 2 §4;
 * `addedafter` includes its day, `addedbefore` excludes its day; both are days (`YYYY-MM-DD`) of
 * `timeZone`, the organisation's, so a subscriber added at 23:30 in Paris is of that Paris day
 * (docs/decisions/012).
 */
export function subscriberFilterSql(
  filter: SubscriberFilter,
  timeZone: string,
  /** See {@link lastNameSql}. */
  { lastNamesThroughList = false } = {},
): SQL | undefined {
  const conditions: Array<SQL | undefined> = [eq(subscribers.hidden, false)];
  const like = (column: AnyPgColumn, value: string | undefined, pattern: (value: string) => string) =>
    present(value) ? sql`${column} like ${pattern(value)}` : undefined;
  conditions.push(
    like(subscribers.searchFirstName, filter.firstname, likeName),
    present(filter.name) ? lastNameSql(filter.name, { throughNameList: lastNamesThroughList }) : undefined,
    like(subscribers.searchAssociation, filter.assoc, likeName),
    like(subscribers.searchTown, filter.town, likePrefix),
    like(subscribers.searchPostcode, filter.postcode, likePrefix),
  );
  if (present(filter.country) && filter.country > 0)
    conditions.push(eq(subscribers.countryId, filter.country));
  if (present(filter.category) && filter.category > 0)
    conditions.push(eq(subscribers.categoryId, filter.category));
  if (present(filter.pmeth) && filter.pmeth > 0)
    conditions.push(eq(subscribers.paymentMethodId, filter.pmeth));
  if (present(filter.copies) && filter.copies > 0) conditions.push(gte(subscribers.copies, filter.copies));
  if (filter.status === 1) conditions.push(eq(subscribers.inactive, false));
  if (filter.status === 2) conditions.push(eq(subscribers.inactive, true));
  if (present(filter.addedafter))
    conditions.push(gte(subscribers.addedOn, startOfCalendarDay(filter.addedafter, timeZone)));
  if (present(filter.addedbefore))
    conditions.push(lt(subscribers.addedOn, startOfCalendarDay(filter.addedbefore, timeZone)));
  if (present(filter.tag) && filter.tag > 0) {
    conditions.push(
      sql`exists (select 1 from ${subscriberTags} where ${subscriberTags.subscriberId} = ${subscribers.id} and ${subscriberTags.tagId} = ${filter.tag})`,
    );
  }
  return and(...conditions);
}

/**
 * True when a search filters on nothing but `filters` (an unset status, a 0 and an empty value are no
 * filter).
 */
function filtersOnlyOn(query: SubscriberSearchQuery, filters: Array<keyof SubscriberFilter>): boolean {
  const { status, listfrom: _listfrom, listlength: _listlength, ...others } = query;
  return (
    (!present(status) || status === 0) &&
    Object.entries(others).every(
      ([filter, value]) =>
        filters.includes(filter as keyof SubscriberFilter) || !present(value) || value === 0,
    )
  );
}

/** True when a search filters on a tag and on nothing else. */
function filtersOnTagAlone(query: SubscriberSearchQuery): query is SubscriberSearchQuery & { tag: number } {
  return present(query.tag) && query.tag > 0 && filtersOnlyOn(query, ['tag']);
}

/**
 * True when a search filters on a last name searched anywhere (3 characters or more) and on nothing
 * else but a country.
 */
function filtersOnNameAnywhere(
  query: SubscriberSearchQuery,
): query is SubscriberSearchQuery & { name: string } {
  return (
    present(query.name) &&
    foldForSearch(query.name).length >= NAME_ANYWHERE_MIN_LENGTH &&
    filtersOnlyOn(query, ['name', 'country'])
  );
}

/**
 * The subscribers carrying `tagId` who are not deleted, read from the tag's index less the few
 * deleted ones: the same matches as the search's filter, counted from one index. Through the
 * subscribers' index instead, PostgreSQL merged 140,000 entries with the tag's to count 10,001 (32 ms
 * a search under the mixed load at 200,000 subscribers).
 */
function tagMembers(db: Executor, tagId: number) {
  return db
    .select({ id: subscriberTags.subscriberId })
    .from(subscriberTags)
    .where(
      and(
        eq(subscriberTags.tagId, tagId),
        notExists(
          db
            .select({ id: subscribers.id })
            .from(subscribers)
            .where(and(eq(subscribers.id, subscriberTags.subscriberId), eq(subscribers.hidden, true))),
        ),
      ),
    );
}

/** The order of every subscriber list: last name, first name (folded), then id. */
export const subscriberOrder = [
  asc(subscribers.searchLastName),
  asc(subscribers.searchFirstName),
  asc(subscribers.id),
];

/**
 * The columns of a result page's rows (`ids`, in {@link subscriberOrder}), as one prepared statement:
 * planning the join for every page cost as much as running it.
 */
const pageRowsStatement = preparedPerConnection((db) =>
  db
    .select({
      id: subscribers.id,
      title: subscribers.title,
      firstName: subscribers.firstName,
      lastName: subscribers.lastName,
      category: categories.name,
      street: subscribers.address1,
      postCode: subscribers.postcode,
    })
    .from(subscribers)
    .leftJoin(categories, eq(categories.id, subscribers.categoryId))
    .where(inIdsPlaceholder(subscribers.id))
    .orderBy(...subscriberOrder)
    .prepare('subscriber_page_rows'),
);

/** The rows of subscribers `ids` for a result page, in {@link subscriberOrder}. */
function readPageRows(db: Executor, ids: number[]) {
  return executeForIds(pageRowsStatement(db), ids);
}

/** {@link subscriberOrder} by the column names of a search's collected matches (see {@link collectFewMatches}). */
const collectedOrder = sql`search_last_name, search_first_name, id`;

/** One history line; `at` (ISO 8601) null for now. Every action on a subscriber writes one. */
const addHistoryStatement = preparedPerConnection((db) =>
  db
    .insert(subscriberHistory)
    .values({
      subscriberId: sql.placeholder('subscriberId'),
      userName: sql.placeholder('userName'),
      description: sql.placeholder('description'),
      at: sql`coalesce(${sql.placeholder('at')}::timestamptz, now())`,
    })
    .prepare('subscriber_history_add'),
);

/**
 * All SQL of the subscriber register (part 2 §7 Subscribers); the day filters are days of `timeZone`
 * (docs/decisions/012).
 */
export function createSubscribersRepository({
  timeZone = DEFAULT_TIME_ZONE,
  countBudgetMs = 0,
}: {
  timeZone?: string;
  /** See {@link countSearchMatches}: 0 estimates every count above 10,000 matches. */
  countBudgetMs?: number;
} = {}) {
  return {
    /** The WHERE clause of `filter` with this register's zone (see {@link subscriberFilterSql}). */
    filterSql: (filter: SubscriberFilter) => subscriberFilterSql(filter, timeZone),

    /**
     * One page of matches and their count (exact up to 10,000, see {@link countSearchMatches}).
     * `listfrom` is 1-based. A last name searched anywhere, a town or a postcode has its matches
     * collected and sorted when they are few ({@link collectFewMatches}): given ORDER BY … LIMIT, the
     * planner walks the name index expecting the matches spread evenly along it, but names cluster
     * (every name containing "garnier" sorts under G: the walk read 70,000 index entries for 50 rows,
     * 68 ms instead of 4 ms at 200,000 subscribers), and a town's 2,000 people are far apart along it
     * (a count and the walk 19 ms, collected 8 ms). Other filters are broad, and their page is the walk.
     * A last name searched anywhere, alone or with a country, is counted from the counts of the names it
     * matches ({@link namesWithBearers}), always exactly, and its page read from the names the page
     * overlaps ({@link pageOfNameBearers}): "mar" at a million subscribers, 25,000 matches, no longer
     * reads 20,001 of them.
     */
    search: async (db: Executor, query: SubscriberSearchQuery) => {
      if (filtersOnNameAnywhere(query)) {
        const country = present(query.country) && query.country > 0 ? query.country : undefined;
        const names = await namesWithBearers(db, query.name, country);
        const ids = await pageOfNameBearers(db, names, country, query);
        return {
          count: names.reduce((sum, name) => sum + name.bearers, 0),
          countIsExact: true,
          rows: ids.length > 0 ? await readPageRows(db, ids) : [],
        };
      }
      const where = subscriberFilterSql(query, timeZone);
      // The same matches read quicker (a last name through the list of names), and as the planner
      // estimates them (see lastNameSql): the reads go through the first, the estimate the second.
      const listedWhere = subscriberFilterSql(query, timeZone, { lastNamesThroughList: true });
      const byTagAlone = filtersOnTagAlone(query);
      const matching = byTagAlone
        ? tagMembers(db, query.tag)
        : db.select({ id: subscribers.id }).from(subscribers).where(listedWhere);
      const estimated = byTagAlone
        ? matching
        : db.select({ id: subscribers.id }).from(subscribers).where(where);
      let moreThanLimit: ManyMatches | undefined;
      const lastNameAnywhere =
        present(query.name) && foldForSearch(query.name).length >= NAME_ANYWHERE_MIN_LENGTH;
      if (lastNameAnywhere || present(query.town) || present(query.postcode)) {
        const collected = await collectFewMatches(
          db,
          db
            .select({
              id: subscribers.id,
              searchLastName: subscribers.searchLastName,
              searchFirstName: subscribers.searchFirstName,
            })
            .from(subscribers)
            .where(listedWhere),
          collectedOrder,
          query,
          (ids) => readPageRows(db, ids),
          { expectedFrom: estimated },
        );
        if (collected.few) return { count: collected.count, countIsExact: true, rows: collected.rows };
        moreThanLimit = collected;
      }
      // The page's ids first, walked from the name index alone where the filter allows, then the
      // columns of those 50 rows only. A last name searched anywhere walks only its listed names' entries:
      // compared in the column, "mar" in France read 372,000 entries for page 1 (140 ms at a million
      // subscribers), through the list 50 (0.7 ms).
      const page = db
        .select({ id: subscribers.id })
        .from(subscribers)
        .where(lastNameAnywhere ? listedWhere : where)
        .orderBy(...subscriberOrder)
        .limit(query.listlength)
        .offset(query.listfrom - 1);
      // Independent reads: on PostgreSQL they run at once on two connections (PGlite queues them).
      const [total, rows] = await Promise.all([
        countSearchMatches(db, matching, countBudgetMs, moreThanLimit, estimated),
        page.then((ids) =>
          readPageRows(
            db,
            ids.map((row) => row.id),
          ),
        ),
      ]);
      return { ...total, rows };
    },

    /** A subscriber, deleted or not, with its tag names sorted; undefined for an unknown id. */
    findById: async (db: Executor, id: number) => {
      const [found] = await subscriberByIdStatement(db).execute({ id });
      return found;
    },

    insert: async (db: Executor, columns: SubscriberColumns) => {
      const [row] = await db.insert(subscribers).values(columns).returning();
      if (!row) throw new Error('insert into subscribers returned no row');
      return row;
    },

    /** Updates only when the stored version is still `expectedVersion`; returns undefined otherwise. */
    update: async (
      db: Executor,
      id: number,
      expectedVersion: number,
      columns: Partial<SubscriberColumns>,
    ) => {
      const [row] = await db
        .update(subscribers)
        .set({ ...columns, version: sql`${subscribers.version} + 1`, updatedAt: sql`now()` })
        .where(and(eq(subscribers.id, id), eq(subscribers.version, expectedVersion)))
        .returning();
      return row;
    },

    /** Locks the subscriber's row for the rest of the transaction. */
    lockById: async (db: Executor, id: number) => {
      const [row] = await db.select().from(subscribers).where(eq(subscribers.id, id)).for('update');
      return row;
    },

    replaceTags: async (db: Executor, subscriberId: number, tagIds: number[]) => {
      await db.delete(subscriberTags).where(eq(subscriberTags.subscriberId, subscriberId));
      if (tagIds.length > 0) {
        await db.insert(subscriberTags).values(tagIds.map((tagId) => ({ subscriberId, tagId })));
      }
    },

    /** The ids of a subscriber's tags. */
    tagIdsOf: async (db: Executor, subscriberId: number) =>
      (
        await db
          .select({ tagId: subscriberTags.tagId })
          .from(subscriberTags)
          .where(eq(subscriberTags.subscriberId, subscriberId))
      ).map((row) => row.tagId),

    /** Tags by name, case-insensitive: `{ name (as asked, lowercased) -> { id, name } }`. */
    findTagsByName: async (db: Executor, names: string[]) => {
      if (names.length === 0) return new Map<string, { id: number; name: string }>();
      const rows = await db
        .select({ id: tags.id, name: tags.name })
        .from(tags)
        .where(
          inArray(
            sql`lower(${tags.name})`,
            names.map((name) => name.toLowerCase()),
          ),
        );
      return new Map(rows.map((row) => [row.name.toLowerCase(), row]));
    },

    /** A subscriber that is not deleted, with its currency: the buyer of a sale or the donor of a gift. */
    findVisibleWithCurrency: async (db: Executor, id: number) => {
      const [row] = await db
        .select({ id: subscribers.id, currencyId: subscribers.currencyId, symbol: currencies.symbol })
        .from(subscribers)
        .innerJoin(currencies, eq(currencies.id, subscribers.currencyId))
        .where(and(eq(subscribers.id, id), eq(subscribers.hidden, false)));
      return row;
    },

    /** Writes one history line, or several in one statement. */
    addHistory: (
      db: Executor,
      entry:
        | { subscriberId: number; userName: string; description: string; at?: Date }
        | ReadonlyArray<{ subscriberId: number; userName: string; description: string }>,
    ): Promise<unknown> =>
      'subscriberId' in entry
        ? addHistoryStatement(db).execute({ ...entry, at: entry.at?.toISOString() ?? null })
        : db.insert(subscriberHistory).values([...entry]),

    /** Gives every history line of the subscriber `description`, keeping its date and user. */
    replaceHistoryDescriptions: (db: Executor, subscriberId: number, description: string) =>
      db
        .update(subscriberHistory)
        .set({ description })
        .where(eq(subscriberHistory.subscriberId, subscriberId)),

    listHistory: (db: Executor, subscriberId: number) =>
      db
        .select({
          description: subscriberHistory.description,
          user: subscriberHistory.userName,
          at: subscriberHistory.at,
        })
        .from(subscriberHistory)
        .where(eq(subscriberHistory.subscriberId, subscriberId))
        .orderBy(desc(subscriberHistory.at), desc(subscriberHistory.id)),
  };
}

export type SubscribersRepository = ReturnType<typeof createSubscribersRepository>;
