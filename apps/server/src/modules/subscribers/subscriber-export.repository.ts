import { DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { and, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Executor, intArrayLiteral, queryRows, renderedOnce } from '../../db/client.ts';
import {
  categories,
  countries,
  currencies,
  paymentMethods,
  subscriptionTypes,
  tags,
} from '../reference-lists/reference-lists.table.ts';
import { type SubscriberFilter, subscriberFilterSql, subscriberOrder } from './subscribers.repository.ts';
import { subscribers, subscriberTags } from './subscribers.table.ts';

/** Where a batch ends in {@link subscriberOrder}: the next batch starts after it. */
export type SubscriberCursor = { searchLastName: string; searchFirstName: string; id: number };

/** Rows strictly after `cursor` in {@link subscriberOrder}; uses the (last, first, id) name index. */
function afterCursor(cursor: SubscriberCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${subscribers.searchLastName}, ${subscribers.searchFirstName}, ${subscribers.id}) > (${cursor.searchLastName}, ${cursor.searchFirstName}, ${cursor.id})`;
}

/** A column of the export and the name it is read back under. */
const detailColumns: Record<string, SQLWrapper> = {
  id: subscribers.id,
  searchLastName: subscribers.searchLastName,
  searchFirstName: subscribers.searchFirstName,
  title: subscribers.title,
  firstName: subscribers.firstName,
  lastName: subscribers.lastName,
  email: subscribers.email,
  phone: subscribers.phone,
  mobile: subscribers.mobile,
  fax: subscribers.fax,
  address1: subscribers.address1,
  address2: subscribers.address2,
  address3: subscribers.address3,
  town: subscribers.town,
  postcode: subscribers.postcode,
  countryId: subscribers.countryId,
  billingAddress: subscribers.billingAddress,
  association: subscribers.association,
  categoryId: subscribers.categoryId,
  paymentMethodId: subscribers.paymentMethodId,
  bank: subscribers.bank,
  iban: subscribers.iban,
  rum: subscribers.rum,
  currencyId: subscribers.currencyId,
  amount: sql`${subscribers.amount}::text`,
  subscriptionTypeId: subscribers.subscriptionTypeId,
  copies: subscribers.copies,
  recommendedBy: subscribers.recommendedBy,
  startDate: sql`${subscribers.startDate}::text`,
  endDate: sql`${subscribers.endDate}::text`,
  inactive: subscribers.inactive,
  inactiveReason: subscribers.inactiveReason,
  onMailChimpList: subscribers.onMailChimpList,
  newsletterEmail: subscribers.newsletterEmail,
  emailConsentDate: sql`${subscribers.emailConsentDate}::text`,
  emailConsentSource: subscribers.emailConsentSource,
  notes: subscribers.notes,
  addedBy: subscribers.addedBy,
  // Milliseconds: one number type on both drivers (pg and PGlite parse timestamps differently).
  addedOnMs: sql`(extract(epoch from ${subscribers.addedOn}) * 1000)::float8`,
};

const selectList = (columns: Record<string, SQLWrapper>) =>
  renderedOnce(
    sql.join(
      Object.entries(columns).map(([alias, column]) => sql`${column} as ${sql.identifier(alias)}`),
      sql`, `,
    ),
  );

/** A row as the details query reads it: the references as ids, the day columns as `YYYY-MM-DD`. */
type StoredDetailsRow = SubscriberCursor & {
  title: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  mobile: string;
  fax: string;
  address1: string;
  address2: string;
  address3: string;
  town: string;
  postcode: string;
  countryId: number | null;
  billingAddress: string;
  association: string;
  categoryId: number | null;
  paymentMethodId: number | null;
  bank: string;
  iban: string;
  rum: string;
  currencyId: number | null;
  /** The `numeric` text, "25.00". */
  amount: string;
  subscriptionTypeId: number | null;
  copies: number;
  recommendedBy: string;
  startDate: string | null;
  endDate: string | null;
  inactive: boolean;
  inactiveReason: string;
  onMailChimpList: boolean;
  newsletterEmail: string;
  emailConsentDate: string | null;
  emailConsentSource: string;
  notes: string;
  addedBy: string;
  addedOnMs: number;
};

/**
 * A row of "Export All Details": the subscriber as read, with its reference names instead of ids and
 * its tag names joined. The row read is wrapped rather than given the names: in a freshly started
 * process, adding properties to the rows `pg` makes cost about 2 µs a property a row (29 µs a row for
 * the seven), half a minute of an export of a million subscribers (docs/decisions/017).
 */
export type SubscriberDetailsRow = {
  subscriber: StoredDetailsRow;
  country: string | null;
  category: string | null;
  paymentMethod: string | null;
  currency: string | null;
  subscriptionType: string | null;
  /** Tag names sorted as the screens sort them, joined with ", " ('' without tags). */
  tags: string;
  addedOn: Date;
};

/** A row of "Export Email Addresses". */
export type SubscriberEmailRow = SubscriberCursor & { firstName: string; lastName: string; email: string };

const REFERENCE_TABLES = {
  country: countries,
  category: categories,
  paymentMethod: paymentMethods,
  currency: currencies,
  subscriptionType: subscriptionTypes,
} as const;
type ReferenceKind = keyof typeof REFERENCE_TABLES;

/** Names of the reference items and tags by id, and the rank of each tag in the screens' order. */
type ReferenceNames = Record<ReferenceKind, Map<number, string>> & {
  tags: Map<number, { name: string; rank: number }>;
};

async function readReferenceNames(db: Executor): Promise<ReferenceNames> {
  const lists = await Promise.all(
    Object.entries(REFERENCE_TABLES).map(async ([kind, table]) => {
      const rows = await queryRows<{ id: number; name: string }>(
        db,
        sql`select ${table.id} as id, ${table.name} as name from ${table}`,
      );
      return [kind, new Map(rows.map((row) => [row.id, row.name]))] as const;
    }),
  );
  const tagRows = await queryRows<{ id: number; name: string }>(
    db,
    sql`select ${tags.id} as id, ${tags.name} as name from ${tags} order by fold_text(${tags.name}), ${tags.id}`,
  );
  return {
    ...(Object.fromEntries(lists) as Record<ReferenceKind, Map<number, string>>),
    tags: new Map(tagRows.map((row, rank) => [row.id, { name: row.name, rank }])),
  };
}

/** The name of reference item `id` of a list, null without one; `undefined` when the list lacks it. */
function nameIn(list: Map<number, string>, id: number | null): string | null | undefined {
  return id === null ? null : list.get(id);
}

/**
 * Each row read with its reference names, its tags (`tagIds` by subscriber id) and `addedOn`, and
 * whether every id was in `names` (an item created since they were read has a null name).
 */
function nameRows(
  rows: StoredDetailsRow[],
  tagIds: Map<number, number[]>,
  names: ReferenceNames,
): { named: SubscriberDetailsRow[]; allKnown: boolean } {
  let allKnown = true;
  const tagRank = (id: number) => names.tags.get(id)?.rank ?? -1;
  const named = rows.map((subscriber): SubscriberDetailsRow => {
    const country = nameIn(names.country, subscriber.countryId);
    const category = nameIn(names.category, subscriber.categoryId);
    const paymentMethod = nameIn(names.paymentMethod, subscriber.paymentMethodId);
    const currency = nameIn(names.currency, subscriber.currencyId);
    const subscriptionType = nameIn(names.subscriptionType, subscriber.subscriptionTypeId);
    if (
      country === undefined ||
      category === undefined ||
      paymentMethod === undefined ||
      currency === undefined ||
      subscriptionType === undefined
    ) {
      allKnown = false;
    }
    const ids = tagIds.get(subscriber.id);
    if (ids?.some((id) => !names.tags.has(id))) allKnown = false;
    return {
      subscriber,
      country: country ?? null,
      category: category ?? null,
      paymentMethod: paymentMethod ?? null,
      currency: currency ?? null,
      subscriptionType: subscriptionType ?? null,
      tags: ids
        ? ids
            .sort((a, b) => tagRank(a) - tagRank(b))
            .map((id) => names.tags.get(id)?.name ?? '')
            .join(', ')
        : '',
      addedOn: new Date(subscriber.addedOnMs),
    };
  });
  return { named, allKnown };
}

const orderBy = renderedOnce(sql.join(subscriberOrder, sql`, `));
const detailsSelect = selectList(detailColumns);
const emailsSelect = selectList({
  id: subscribers.id,
  searchLastName: subscribers.searchLastName,
  searchFirstName: subscribers.searchFirstName,
  firstName: subscribers.firstName,
  lastName: subscribers.lastName,
  email: subscribers.email,
});

/**
 * SQL of the subscriber exports (part 2 §7 `GET /api/subscribers/export`), read in keyset-paged batches;
 * the day filters are days of `timeZone` (docs/decisions/012). The batches read the subscribers table
 * alone, in raw rows: reference and tag names are looked up here from lists read once per export (and
 * again when a batch names an item created since). Joining them in SQL, and mapping the rows through
 * the query builder, made a large export about five times slower (bench/subscribers.bench.ts).
 */
export function createSubscriberExportRepository({
  timeZone = DEFAULT_TIME_ZONE,
}: {
  timeZone?: string;
} = {}) {
  return {
    /**
     * A reader of "Export All Details": each call gives up to `limit` matching subscribers after
     * `cursor`, with every field, reference names instead of ids and tag names joined.
     */
    detailsReader: (db: Executor, filter: SubscriberFilter) => {
      let names: Promise<ReferenceNames> | undefined;
      return async ({
        cursor,
        limit,
      }: {
        cursor?: SubscriberCursor;
        limit: number;
      }): Promise<SubscriberDetailsRow[]> => {
        const rows = await queryRows<StoredDetailsRow>(
          db,
          sql`select ${detailsSelect} from ${subscribers}
               where ${and(subscriberFilterSql(filter, timeZone), afterCursor(cursor)) ?? sql`true`}
               order by ${orderBy} limit ${limit}`,
        );
        if (rows.length === 0) return [];
        const links = await queryRows<{ subscriberId: number; tagId: number }>(
          db,
          // The ids as one array parameter: 250 parameters cost more to build than the query takes.
          sql`select ${subscriberTags.subscriberId} as "subscriberId", ${subscriberTags.tagId} as "tagId"
                from ${subscriberTags}
               where ${subscriberTags.subscriberId} = any(${intArrayLiteral(rows.map((row) => row.id))}::int[])`,
        );
        const tagIds = new Map<number, number[]>();
        for (const link of links) {
          const ids = tagIds.get(link.subscriberId);
          if (ids) ids.push(link.tagId);
          else tagIds.set(link.subscriberId, [link.tagId]);
        }
        names ??= readReferenceNames(db);
        const named = nameRows(rows, tagIds, await names);
        if (named.allKnown) return named.named;
        names = readReferenceNames(db);
        return nameRows(rows, tagIds, await names).named;
      };
    },

    /**
     * How many subscribers match `filter` (with `emailsOnly`, those with an email address); with `cap`,
     * counting stops at `cap + 1`.
     */
    countRows: async (
      db: Executor,
      { filter, emailsOnly, cap }: { filter: SubscriberFilter; emailsOnly: boolean; cap?: number },
    ): Promise<number> => {
      const where = and(
        subscriberFilterSql(filter, timeZone),
        emailsOnly ? ne(subscribers.email, '') : undefined,
      );
      const matches = sql`select 1 from ${subscribers} where ${where ?? sql`true`}${cap === undefined ? sql`` : sql` limit ${cap + 1}`}`;
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from (${matches}) as matches`,
      );
      return row?.n ?? 0;
    },

    /** Up to `limit` matching subscribers after `cursor` that have an email address: names and address. */
    emailsBatch: (
      db: Executor,
      { filter, cursor, limit }: { filter: SubscriberFilter; cursor?: SubscriberCursor; limit: number },
    ) =>
      queryRows<SubscriberEmailRow>(
        db,
        sql`select ${emailsSelect} from ${subscribers}
             where ${and(subscriberFilterSql(filter, timeZone), ne(subscribers.email, ''), afterCursor(cursor))}
             order by ${orderBy} limit ${limit}`,
      ),
  };
}

export type SubscriberExportRepository = ReturnType<typeof createSubscriberExportRepository>;
