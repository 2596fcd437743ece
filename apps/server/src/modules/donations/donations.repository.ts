import type { DonationSearchQuery } from '@back-office/contract/donations';
import { and, desc, eq, gt, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { PgSelect, SelectedFields } from 'drizzle-orm/pg-core';
import {
  type Executor,
  executeForIds,
  inIdsPlaceholder,
  preparedPerConnection,
  queryRows,
} from '../../db/client.ts';
import { collectFewMatches, countSearchMatches, EXACT_COUNT_LIMIT } from '../../lib/search-count.ts';
import { likePrefix } from '../../lib/search-text.ts';
import { currencies, paymentMethods } from '../reference-lists/reference-lists.table.ts';
import { creditNotes } from '../sales/credit-notes.table.ts';
import { sales } from '../sales/sales.table.ts';
import {
  type CopiedNameUse,
  copiedLastNameSql,
  listedLastNames,
  newestOfEachName,
} from '../subscribers/copied-last-name.ts';
import { lastNameSql, subscribers } from '../subscribers/subscribers.table.ts';
import { donations, receipts } from './donations.table.ts';

/** Filters of a donation search, as the export takes them too (part 2 §7). */
export type DonationFilter = Omit<DonationSearchQuery, 'listfrom' | 'listlength'>;

const present = <T>(value: T | '' | undefined | null): value is T =>
  value !== undefined && value !== null && value !== '';

/**
 * The WHERE clause of a donation search over `donations` joined to `subscribers` and `payment_methods`.
 * The donor's name is matched: on the gift's copy of it (`copiedName`, see {@link copiedLastNameSql}:
 * then on `donations` alone), through the list of names on the joined donor (`lastNamesThroughList`,
 * see {@link lastNameSql}), or on the joined donor's column.
 */
export function donationFilterSql(
  filter: DonationFilter,
  {
    lastNamesThroughList = false,
    copiedName,
  }: { lastNamesThroughList?: boolean; copiedName?: CopiedNameUse } = {},
): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (present(filter.id) && filter.id > 0) conditions.push(eq(donations.subscriberId, filter.id));
  if (present(filter.name))
    conditions.push(
      copiedName
        ? copiedLastNameSql(donations.subscriberSearchLastName, filter.name, copiedName)
        : lastNameSql(filter.name, { throughNameList: lastNamesThroughList }),
    );
  if (present(filter.zip)) conditions.push(sql`${subscribers.searchPostcode} like ${likePrefix(filter.zip)}`);
  if (present(filter.addedafter)) conditions.push(gte(donations.donationDate, filter.addedafter));
  if (present(filter.addedbefore)) conditions.push(lt(donations.donationDate, filter.addedbefore));
  if (present(filter.amountMin)) conditions.push(gt(donations.amount, filter.amountMin.toFixed(2)));
  if (present(filter.amountMax)) conditions.push(lt(donations.amount, filter.amountMax.toFixed(2)));
  if (filter.isdebit === 1) conditions.push(eq(paymentMethods.directDebit, true));
  if (filter.isdebit === 2) conditions.push(sql`coalesce(${paymentMethods.directDebit}, false) = false`);
  if (present(filter.country) && filter.country > 0)
    conditions.push(eq(subscribers.countryId, filter.country));
  if (present(filter.category) && filter.category > 0)
    conditions.push(eq(subscribers.categoryId, filter.category));
  return and(...conditions);
}

/**
 * The tables a filter reads besides `donations`: counting the matches joins only those (every donation
 * has exactly one donor, a non-null foreign key, so the joins change no count). Joining a table that is
 * not read costs most of the count's time on a million donations, and keeps PostgreSQL from counting
 * from an index alone (donation search speed goal).
 */
export function tablesReadBy(filter: DonationFilter): { subscribers: boolean; paymentMethods: boolean } {
  const paymentMethods = filter.isdebit === 1 || filter.isdebit === 2;
  return {
    subscribers:
      paymentMethods ||
      present(filter.name) ||
      present(filter.zip) ||
      (present(filter.country) && filter.country > 0) ||
      (present(filter.category) && filter.category > 0),
    paymentMethods,
  };
}

/** Newest donation first, then the last one recorded (part 2 §7 Donations). */
const donationOrder = [desc(donations.donationDate), desc(donations.id)];

/**
 * Up to how many expected gifts of a name searched are collected and sorted rather than found by
 * walking the dates, and how many at most are read (a third more, for the planner's error), given
 * `allGifts` in the table. The walk for page 1 checks the donor of about allGifts / matches × 50
 * gifts, some 3 µs each, where collecting costs about 1 µs a match: the two meet where matches² =
 * 150 × allGifts (12,000 at a million gifts, 27,000 at five million: "cor", 10,500 gifts among
 * five million, walked in 94 ms). Never fewer than the count's exact limit.
 */
export function giftsOfANameSorted(allGifts: number): { whenExpected: number; limit: number } {
  const whenExpected = Math.max(EXACT_COUNT_LIMIT, Math.round(Math.sqrt(150 * Math.max(0, allGifts))));
  return { whenExpected, limit: Math.round((whenExpected * 4) / 3) };
}

/** The planner's count of all gifts (`pg_class.reltuples`; 0 before the table's first ANALYZE). */
async function plannedGifts(db: Executor): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`select greatest(reltuples, 0) as n from pg_class where oid = 'donations'::regclass`,
  );
  return Number(row?.n ?? 0);
}

/** {@link donationOrder} by the column names of a search's collected matches (see {@link collectFewMatches}). */
const collectedOrder = sql`donation_date desc, id desc`;

const listColumns = {
  id: donations.id,
  subscriberId: donations.subscriberId,
  title: subscribers.title,
  firstName: subscribers.firstName,
  lastName: subscribers.lastName,
  email: subscribers.email,
  postCode: subscribers.postcode,
  amount: donations.amount,
  currencyName: currencies.name,
  currencySymbol: currencies.symbol,
  donationDate: donations.donationDate,
  notes: donations.notes,
  receiptNumber: receipts.number,
  /** The sale whose gift it is (part 2 §2.6), and that sale's reference; null for a gift of its own. */
  saleId: donations.saleId,
  saleRef: sales.ref,
};

/** A donation with its donor, currency, receipt and sale, as the list shows it. */
const joined = (db: Executor) =>
  db
    .select(listColumns)
    .from(donations)
    .innerJoin(subscribers, eq(subscribers.id, donations.subscriberId))
    .innerJoin(currencies, eq(currencies.id, donations.currencyId))
    .leftJoin(receipts, eq(receipts.id, donations.receiptId))
    .leftJoin(sales, eq(sales.id, donations.saleId));

/**
 * The list columns of a result page's donations (`ids`, in {@link donationOrder}), as one prepared
 * statement: planning this join for every page took longer than running it.
 */
const pageRowsStatement = preparedPerConnection((db) =>
  joined(db)
    .where(inIdsPlaceholder(donations.id))
    .orderBy(...donationOrder)
    .prepare('donation_page_rows'),
);

/** The list rows of donations `ids`, in {@link donationOrder}. */
function readPageRows(db: Executor, ids: number[]) {
  return executeForIds(pageRowsStatement(db), ids);
}

/**
 * All SQL of donations (part 2 §7 Donations). `countBudgetMs`: see {@link countSearchMatches} (0
 * estimates every count above 10,000 matches).
 */
export function createDonationsRepository({ countBudgetMs = 0 }: { countBudgetMs?: number } = {}) {
  /**
   * A search whose only condition on donors is their last name `name`, on `donations` alone: its
   * matches read from the gifts' copy of the name and its index (name, date, id), up to 10,001 of them
   * with their exact count and page; with more, the page merged from each name's newest gifts
   * ({@link newestOfEachName}) or walked along the dates, and the count estimated.
   */
  async function searchByName(db: Executor, query: DonationSearchQuery, name: string) {
    const matching = (fields: SelectedFields, copiedName: CopiedNameUse = 'read') =>
      db.select(fields).from(donations).where(donationFilterSql(query, { copiedName }));
    const collected = await collectFewMatches(
      db,
      matching({ id: donations.id, donationDate: donations.donationDate }),
      collectedOrder,
      query,
      (ids) => readPageRows(db, ids),
    );
    if (collected.few) return { count: collected.count, countIsExact: true, rows: collected.rows };
    const [total, names] = await Promise.all([
      countSearchMatches(
        db,
        matching({ id: donations.id }),
        countBudgetMs,
        collected,
        matching({ id: donations.id }, 'estimate'),
      ),
      listedLastNames(db, name),
    ]);
    const merged = names
      ? await newestOfEachName(db, {
          from: donations,
          name: donations.subscriberSearchLastName,
          date: donations.donationDate,
          id: donations.id,
          names,
          where: donationFilterSql({ ...query, name: undefined }),
          page: query,
        })
      : undefined;
    // Walked along the dates, each gift's copy is compared with the pattern: against an array of
    // thousands of names, PostgreSQL would compare each gift with every name in turn.
    const ids =
      merged ??
      (
        await matching({ id: donations.id }, 'estimate')
          .orderBy(...donationOrder)
          .limit(query.listlength)
          .offset(query.listfrom - 1)
      ).map((row) => Number(row.id));
    return { ...total, rows: await readPageRows(db, ids) };
  }

  return {
    /**
     * One page of matches, newest donation first, and their count (exact up to 10,000, see
     * {@link countSearchMatches}; joining only what the filter reads).
     */
    search: async (db: Executor, query: DonationSearchQuery) => {
      const reads = tablesReadBy(query);
      // A name that is the only condition on donors is matched on the gifts' copy of it.
      if (present(query.name) && !tablesReadBy({ ...query, name: undefined }).subscribers)
        return searchByName(db, query, query.name);
      // The matching rows with `fields` (their ids by default), as a subquery.
      const matching = (fields: SelectedFields = { id: donations.id }, lastNamesThroughList = false) => {
        let rows: PgSelect = db.select(fields).from(donations).$dynamic();
        if (reads.subscribers) rows = rows.innerJoin(subscribers, eq(subscribers.id, donations.subscriberId));
        if (reads.paymentMethods)
          rows = rows.leftJoin(paymentMethods, eq(paymentMethods.id, subscribers.paymentMethodId));
        return rows.where(donationFilterSql(query, { lastNamesThroughList }));
      };
      // The page's ids first, from the filter's tables alone (index-only where the indexes allow), then
      // the columns of those rows only: page 100 no longer reads 4,950 full rows to skip them.
      const walkedPage = async () => {
        const page = await matching()
          .orderBy(...donationOrder)
          .limit(query.listlength)
          .offset(query.listfrom - 1);
        return readPageRows(
          db,
          page.map((row) => Number(row.id)),
        );
      };
      if (reads.subscribers) {
        // Donors' donations spread along the date index: for a rare name the walk probed 12,000
        // donors for one page (45 ms at 200,000 subscribers), so few matches are collected and sorted.
        // A name's gifts, sparse along the dates: more of them are collected (giftsOfANameSorted).
        const collected = await collectFewMatches(
          db,
          matching({ id: donations.id, donationDate: donations.donationDate }, true),
          collectedOrder,
          query,
          (ids) => readPageRows(db, ids),
          present(query.name)
            ? { expectedFrom: matching(), sorted: giftsOfANameSorted(await plannedGifts(db)) }
            : {},
        );
        if (collected.few) return { count: collected.count, countIsExact: true, rows: collected.rows };
        const total = await countSearchMatches(
          db,
          matching({ id: donations.id }, true),
          countBudgetMs,
          collected,
          matching(),
        );
        return { ...total, rows: await walkedPage() };
      }
      // Independent reads: on PostgreSQL they run at once on two connections (PGlite queues them).
      const [total, rows] = await Promise.all([
        countSearchMatches(db, matching(), countBudgetMs),
        walkedPage(),
      ]);
      return { ...total, rows };
    },

    findListItem: async (db: Executor, id: number) => {
      const [row] = await joined(db).where(eq(donations.id, id));
      return row;
    },

    /** The donation locked for the rest of the transaction. */
    lockById: async (db: Executor, id: number) => {
      const [row] = await db.select().from(donations).where(eq(donations.id, id)).for('update');
      return row;
    },

    /**
     * The donation that is the gift of sale `saleId` (part 2 §2.6), locked for the rest of the
     * transaction, or undefined when the sale has none.
     */
    lockBySale: async (db: Executor, saleId: number) => {
      const [row] = await db.select().from(donations).where(eq(donations.saleId, saleId)).for('update');
      return row;
    },

    /**
     * The sale a donation is the gift of: its reference, and the number of the credit note that
     * cancelled it (null while it stands). Undefined for an unknown sale.
     */
    findSale: async (db: Executor, saleId: number) => {
      const [row] = await db
        .select({ ref: sales.ref, creditNoteNumber: creditNotes.number })
        .from(sales)
        .leftJoin(creditNotes, eq(creditNotes.saleId, sales.id))
        .where(eq(sales.id, saleId));
      return row;
    },

    /**
     * Inserts a donation; `amount` is `numeric` text in the units of `currencyId` ("25.00"), `saleId`
     * the sale whose gift it is (part 2 §2.6). @returns its id.
     */
    insert: async (
      db: Executor,
      values: {
        subscriberId: number;
        amount: string;
        currencyId: number;
        donationDate: string;
        notes: string;
        addedBy: string;
        saleId?: number;
      },
    ) => {
      const [row] = await db.insert(donations).values(values).returning({ id: donations.id });
      if (!row) throw new Error('insert into donations returned no row');
      return row.id;
    },

    /**
     * Empties the notes of a donor's gifts (they may name people), keeping amounts and dates: part
     * of an anonymisation (docs/decisions/019).
     */
    clearNotesOf: (db: Executor, subscriberId: number) =>
      db
        .update(donations)
        .set({ notes: '' })
        .where(and(eq(donations.subscriberId, subscriberId), sql`${donations.notes} <> ''`)),

    delete: (db: Executor, id: number) =>
      db.delete(donations).where(and(eq(donations.id, id), sql`${donations.receiptId} is null`)),
  };
}

export type DonationsRepository = ReturnType<typeof createDonationsRepository>;
export type DonationListRow = NonNullable<Awaited<ReturnType<DonationsRepository['findListItem']>>>;
