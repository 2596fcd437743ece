import { DEFAULT_TIME_ZONE, startOfCalendarDay } from '@back-office/contract/calendar';
import type { SaleSearchQuery } from '@back-office/contract/sales';
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { type Executor, executeForIds, inIdsPlaceholder, preparedPerConnection } from '../../db/client.ts';
import { allocateNumber } from '../../db/counters.ts';
import { collectFewMatches } from '../../lib/search-count.ts';
import { likePrefix } from '../../lib/search-text.ts';
import { products } from '../products/products.table.ts';
import { findStock, moveStock } from '../products/stock-movements.repository.ts';
import { countries, currencies } from '../reference-lists/reference-lists.table.ts';
import {
  type CopiedNameUse,
  copiedLastNameSql,
  listedLastNames,
  newestOfEachName,
} from '../subscribers/copied-last-name.ts';
import { lastNameSql, subscribers } from '../subscribers/subscribers.table.ts';
import { creditNotes } from './credit-notes.table.ts';
import { paymentStatusSql } from './sale-payments.repository.ts';
import { saleCounter, saleLines, sales } from './sales.table.ts';

export type SaleRow = typeof sales.$inferSelect;
export type SaleLineRow = typeof saleLines.$inferSelect;
export type SaleFilter = Omit<SaleSearchQuery, 'listfrom' | 'listlength'>;

const present = <T>(value: T | '' | undefined | null): value is T =>
  value !== undefined && value !== null && value !== '';

/**
 * The WHERE clause of a sales search over `sales` (joined to `subscribers` when the buyer's name is
 * matched there; part 2 §7 Sales). "Added after" and "added before" are days of `timeZone`
 * (docs/decisions/012): after = from its start, before = until its start. `paymentStatus` compares with
 * `today` (`YYYY-MM-DD`, the organisation's day).
 */
export function saleFilterSql(
  filter: SaleFilter,
  timeZone: string,
  today?: string,
  /**
   * The buyer's name matched on the sale's copy of it ({@link copiedLastNameSql}), on `sales` alone;
   * else on the joined buyer's column.
   */
  { copiedName }: { copiedName?: CopiedNameUse } = {},
): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (present(filter.paymentStatus)) {
    // The day comes from the app's clock (tests set it), never from the system's.
    if (today === undefined) throw new Error('saleFilterSql needs today to filter on the payment status');
    conditions.push(isNotNull(sales.invoiceIssuedAt));
    conditions.push(sql`${paymentStatusSql(timeZone, today)} = ${filter.paymentStatus}`);
  }
  if (present(filter.id) && filter.id > 0) conditions.push(eq(sales.subscriberId, filter.id));
  if (present(filter.salesref) && filter.salesref > 0) conditions.push(eq(sales.ref, filter.salesref));
  if (present(filter.name))
    conditions.push(
      copiedName
        ? copiedLastNameSql(sales.subscriberSearchLastName, filter.name, copiedName)
        : lastNameSql(filter.name),
    );
  if (present(filter.zip)) conditions.push(sql`lower(${sales.postcode}) like ${likePrefix(filter.zip)}`);
  if (present(filter.addedafter))
    conditions.push(gte(sales.addedOn, startOfCalendarDay(filter.addedafter, timeZone)));
  if (present(filter.addedbefore))
    conditions.push(lt(sales.addedOn, startOfCalendarDay(filter.addedbefore, timeZone)));
  if (present(filter.greaterThan)) conditions.push(gt(sales.total, filter.greaterThan.toFixed(2)));
  if (present(filter.lessThan)) conditions.push(lt(sales.total, filter.lessThan.toFixed(2)));
  if (present(filter.productid) && filter.productid > 0) {
    conditions.push(
      sql`exists (select 1 from ${saleLines} where ${saleLines.saleId} = ${sales.id} and ${saleLines.productId} = ${filter.productid})`,
    );
  }
  return and(...conditions);
}

/**
 * The subscribers behind at least one sale matching `filter`: a condition over `subscribers`, for the
 * bulk email to buyers (part 2 §7 Sales). Correlated: the filter's name condition reads the outer row.
 */
export function buyersOfSalesSql(filter: Omit<SaleFilter, 'paymentStatus'>, timeZone: string): SQL {
  const saleFilter = saleFilterSql(filter, timeZone);
  return sql`exists (select 1 from ${sales} where ${sales.subscriberId} = ${subscribers.id}${
    saleFilter ? sql` and ${saleFilter}` : sql``
  })`;
}

/** Newest sale first, then the last one recorded (part 2 §7 Sales). */
const saleOrder = [desc(sales.addedOn), desc(sales.id)];

/** {@link saleOrder} by the column names of a search's collected matches (see `collectFewMatches`). */
const collectedOrder = sql`added_on desc, id desc`;

/**
 * The list columns of a result page's sales (`ids`, in {@link saleOrder}; the payment status on
 * `today` in `timeZone`), as one prepared statement: planning this join for every page took longer
 * than running it.
 */
const pageRowsStatement = preparedPerConnection((db) =>
  db
    .select({
      id: sales.id,
      subscriberId: sales.subscriberId,
      fullName: sales.fullName,
      total: sales.total,
      currencyName: currencies.name,
      currencySymbol: currencies.symbol,
      addedOn: sales.addedOn,
      postcode: sales.postcode,
      addr1: sales.addr1,
      town: sales.town,
      ref: sales.ref,
      invoiceIssuedAt: sales.invoiceIssuedAt,
      paymentStatus: paymentStatusSql(sql.placeholder('timeZone'), sql.placeholder('today')),
      reminderLevel: sales.reminderLevel,
      lastReminderOn: sales.lastReminderOn,
      /** The number of the credit note cancelling the sale (at most one), or null. */
      creditNoteNumber: creditNotes.number,
    })
    .from(sales)
    .innerJoin(currencies, eq(currencies.id, sales.currencyId))
    .leftJoin(creditNotes, eq(creditNotes.saleId, sales.id))
    .where(inIdsPlaceholder(sales.id))
    .orderBy(...saleOrder)
    .prepare('sale_page_rows'),
);

/**
 * All SQL of sales and their stock movements (part 2 §7 Sales; docs/decisions/010); days are of
 * `timeZone`.
 */
export function createSalesRepository({ timeZone = DEFAULT_TIME_ZONE }: { timeZone?: string } = {}) {
  /**
   * A sale with its currency's name, symbol and ISO code, the ISO 3166-1 alpha-2 code of its buyer's
   * country (`countryIso`: the reference list's country of that name, case ignored; null when none
   * or without code) and its lines in order, or undefined.
   */
  async function findSale(db: Executor, id: number) {
    const [row] = await db
      .select({
        sale: sales,
        currencyName: currencies.name,
        currencySymbol: currencies.symbol,
        currencyIso: currencies.isoCode,
        countryIso: countries.isoCode,
      })
      .from(sales)
      .innerJoin(currencies, eq(currencies.id, sales.currencyId))
      .leftJoin(countries, sql`lower(${countries.name}) = lower(trim(${sales.country}))`)
      .where(eq(sales.id, id));
    if (!row) return undefined;
    const lines = await db
      .select()
      .from(saleLines)
      .where(eq(saleLines.saleId, id))
      .orderBy(asc(saleLines.position));
    return { ...row, lines };
  }

  return {
    /**
     * One page of matching sales, newest first: the page's ids first, from `sales` alone, then the
     * columns of those rows only. A buyer's name is matched on the sale's copy of it (migration 0060):
     * up to 10,001 matches are collected from its index and sorted; with more, the page is merged
     * from each name's newest sales ({@link newestOfEachName}) or walked along the dates.
     */
    search: async (db: Executor, query: SaleSearchQuery, today: string) => {
      // The matching rows with `fields` (their ids by default), as a subquery. Walked along the dates,
      // each sale's copy of the name is compared with the pattern ('estimate'): against an array of
      // thousands of names, PostgreSQL would compare each sale with every name in turn.
      const matching = (fields: SelectedFields = { id: sales.id }, copiedName: CopiedNameUse = 'estimate') =>
        db
          .select(fields)
          .from(sales)
          .where(saleFilterSql(query, timeZone, today, { copiedName }));
      const pageRows = (ids: number[]) => executeForIds(pageRowsStatement(db), ids, { timeZone, today });
      if (present(query.name)) {
        const collected = await collectFewMatches(
          db,
          matching({ id: sales.id, addedOn: sales.addedOn }, 'read'),
          collectedOrder,
          query,
          pageRows,
        );
        if (collected.few) return collected.rows;
        const names = await listedLastNames(db, query.name);
        const merged = names
          ? await newestOfEachName(db, {
              from: sales,
              name: sales.subscriberSearchLastName,
              date: sales.addedOn,
              id: sales.id,
              names,
              where: saleFilterSql({ ...query, name: undefined }, timeZone, today),
              page: query,
            })
          : undefined;
        if (merged) return pageRows(merged);
      }
      const page = await matching()
        .orderBy(...saleOrder)
        .limit(query.listlength)
        .offset(query.listfrom - 1);
      return pageRows(page.map((row) => Number(row.id)));
    },

    /** The ISO 3166-1 alpha-2 code of the country of this name (case ignored), or null when none. */
    countryIsoByName: async (db: Executor, name: string): Promise<string | null> => {
      if (!name.trim()) return null;
      const [row] = await db
        .select({ iso: countries.isoCode })
        .from(countries)
        .where(sql`lower(${countries.name}) = lower(trim(${name}))`);
      return row?.iso ?? null;
    },

    /** The next sale reference, allocated inside the caller's transaction: a rollback gives it back. */
    allocateRef: (db: Executor) => allocateNumber(db, saleCounter, saleCounter.lastRef),

    /** Products that can be sold (not deleted), by id, with their catalogue prices (`numeric` strings). */
    findProducts: async (db: Executor, ids: number[]) => {
      const rows = await db
        .select({
          id: products.id,
          name: products.name,
          euroPrice: products.euroPrice,
          swissPrice: products.swissPrice,
        })
        .from(products)
        .where(and(inArray(products.id, ids), isNull(products.deletedAt)));
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** Currencies by symbol, case-insensitive (`€`, `chf`). */
    findCurrencyBySymbol: async (db: Executor, symbol: string) => {
      const [row] = await db
        .select()
        .from(currencies)
        .where(sql`lower(${currencies.symbol}) = lower(${symbol})`)
        .orderBy(asc(currencies.id))
        .limit(1);
      return row;
    },

    insertSale: async (db: Executor, values: typeof sales.$inferInsert) => {
      const [row] = await db.insert(sales).values(values).returning();
      if (!row) throw new Error('insert into sales returned no row');
      return row;
    },

    insertLines: (db: Executor, lines: Array<typeof saleLines.$inferInsert>) =>
      db.insert(saleLines).values(lines),

    /**
     * Moves a product's stock and writes its ledger row (`kind` `sale` with a negative quantity,
     * `saleCancelled` with a positive one, `saleId`, the user), in the caller's transaction. This is
     * the one function anything that takes items out for a sale or puts them back must call.
     * @returns the movement, or undefined when the product holds too few items (nothing written).
     */
    moveStock,

    /** A product's name and current stock (to say how many are available), deleted ones too. */
    findStock,

    findSale,

    /**
     * Sales `ids`, locked for the rest of the transaction in id order (two batches never deadlock), each
     * with its currency's symbol.
     */
    lockSales: async (db: Executor, ids: number[]) => {
      if (ids.length === 0) return [];
      return db
        .select({ sale: sales, currencySymbol: currencies.symbol })
        .from(sales)
        .innerJoin(currencies, eq(currencies.id, sales.currencyId))
        .where(inArray(sales.id, ids))
        .orderBy(asc(sales.id))
        .for('update', { of: sales });
    },

    lockSale: async (db: Executor, id: number) => {
      const [row] = await db.select().from(sales).where(eq(sales.id, id)).for('update');
      return row;
    },

    deleteSale: (db: Executor, id: number) => db.delete(sales).where(eq(sales.id, id)),

    /** Records reminder n° `level` of sale `id`'s invoice, sent on `day` (`YYYY-MM-DD`). */
    recordReminder: async (db: Executor, id: number, level: number, day: string): Promise<void> => {
      await db.update(sales).set({ reminderLevel: level, lastReminderOn: day }).where(eq(sales.id, id));
    },

    /** A buyer's sales, oldest first, with their lines (GDPR art. 15 archive). */
    listBySubscriber: async (db: Executor, subscriberId: number) => {
      const rows = await db
        .select({ id: sales.id })
        .from(sales)
        .where(eq(sales.subscriberId, subscriberId))
        .orderBy(asc(sales.addedOn), asc(sales.id));
      const found = [];
      for (const row of rows) {
        const sale = await findSale(db, row.id);
        if (sale) found.push(sale);
      }
      return found;
    },

    /**
     * Replaces the buyer's copies on sales of an anonymised subscriber by the subscriber's anonymised
     * name and empty address, association, delivery address and notes; amounts, lines, reference,
     * country and order number stay (docs/decisions/019). `which` picks the sales: those of
     * `subscriberId` whose invoice was never issued (at anonymisation: no document carries them), or
     * those of any anonymised buyer whose invoice was issued before `issuedBefore` (past retention).
     * Resolves with the buyer of each sale changed.
     */
    forgetBuyers: async (
      db: Executor,
      which: { subscriberId: number; uninvoiced: true } | { issuedBefore: Date },
    ) => {
      const rows = await db
        .update(sales)
        .set({
          ...FORGOTTEN_BUYER,
          fullName: sql`${subscribers.firstName} || ' ' || ${subscribers.lastName}`,
        })
        .from(subscribers)
        .where(and(eq(subscribers.id, sales.subscriberId), forgettable(which)))
        .returning({ subscriberId: sales.subscriberId });
      return rows.map((row) => row.subscriberId);
    },

    /** Whether {@link forgetBuyers} has sales issued before `issuedBefore` to change. */
    hasBuyersToForget: async (db: Executor, issuedBefore: Date) => {
      const rows = await db
        .select({ id: sales.id })
        .from(sales)
        .innerJoin(subscribers, eq(subscribers.id, sales.subscriberId))
        .where(forgettable({ issuedBefore }))
        .limit(1);
      return rows.length > 0;
    },
  };
}

/** What a sale keeps of its buyer once forgotten, besides the anonymised name. */
const FORGOTTEN_BUYER = {
  association: '',
  addr1: '',
  addr2: '',
  addr3: '',
  town: '',
  postcode: '',
  deliveryAddress: '',
  notes: '',
};

/**
 * Sales (joined to their buyer) of {@link createSalesRepository}'s `forgetBuyers` that still carry
 * something of the buyer.
 */
function forgettable(which: { subscriberId: number; uninvoiced: true } | { issuedBefore: Date }) {
  const chosen =
    'issuedBefore' in which
      ? and(isNotNull(subscribers.anonymisedAt), lt(sales.invoiceIssuedAt, which.issuedBefore))
      : and(eq(sales.subscriberId, which.subscriberId), isNull(sales.invoiceIssuedAt));
  const carriesBuyer = or(
    sql`${sales.fullName} <> ${subscribers.firstName} || ' ' || ${subscribers.lastName}`,
    ...Object.keys(FORGOTTEN_BUYER).map((key) => sql`${sales[key as keyof typeof FORGOTTEN_BUYER]} <> ''`),
  );
  return and(chosen, carriesBuyer);
}

export type SalesRepository = ReturnType<typeof createSalesRepository>;
