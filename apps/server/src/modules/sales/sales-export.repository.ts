import {
  calendarDay,
  DEFAULT_TIME_ZONE,
  nextCalendarDay,
  startOfCalendarDay,
} from '@back-office/contract/calendar';
import type { CsvDialect } from '@back-office/contract/common';
import { and, asc, desc, eq, gte, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Executor, intArrayLiteral, queryRows } from '../../db/client.ts';
import { copyCsvStream, csvCopyQuery, formulaSafeSql } from '../../db/copy-csv.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import type { CsvColumn } from '../../lib/csv.ts';
import { keysetRows } from '../../lib/keyset-rows.ts';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import { type SaleFilter, saleFilterSql } from './sales.repository.ts';
import { saleLines, sales } from './sales.table.ts';

const BATCH = 1000;

/**
 * `added_on` to the microsecond, as the keyset cursor: a JS Date keeps only milliseconds, so a cursor
 * made of one would skip the sales of the same millisecond after it.
 */
const addedOnCursor = sql<string>`to_char(${sales.addedOn} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** One exported sale: every column as the CSV writes it (`numeric` amounts as text, "26.00"). */
export type ExportedSale = {
  id: number;
  addedOnCursor: string;
  ref: number;
  date: string;
  subscriberId: number;
  fullName: string;
  association: string;
  addr1: string;
  addr2: string;
  addr3: string;
  town: string;
  postcode: string;
  country: string;
  email: string;
  currency: string;
  subTotal: string;
  discountPercentage: string;
  discountAmount: string;
  deliveryCharge: string;
  donation: string;
  total: string;
  orderNumber: string;
  addedBy: string;
};

/** One line of an exported sale; amounts as `numeric` text ("12.50"). */
export type ExportedSaleLine = {
  saleId: number;
  productId: number;
  productName: string;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
};

/**
 * The columns of a sale as the CSV shows them: the date as `YYYY-MM-DD` (the organisation's day, issue
 * 15 §8), amounts with two
 * decimals and the discount percentage without trailing zeros, all written by PostgreSQL so that the
 * export only copies text (the speed goal: CSV within 3× of COPY).
 */
const saleColumnsIn = (timeZone: string) =>
  ({
    id: sales.id,
    addedOnCursor,
    ref: sales.ref,
    date: formulaSafeSql(sql<string>`to_char(${sales.addedOn} at time zone ${timeZone}, 'YYYY-MM-DD')`),
    subscriberId: sales.subscriberId,
    fullName: sales.fullName,
    association: sales.association,
    addr1: sales.addr1,
    addr2: sales.addr2,
    addr3: sales.addr3,
    town: sales.town,
    postcode: sales.postcode,
    country: sales.country,
    email: subscribers.email,
    currency: currencies.symbol,
    // numeric(12,2) amounts come as the database writes them ("26.00"), the export's format.
    subTotal: sales.subTotal,
    discountPercentage: sql<string>`trim_scale(${sales.discountPercentage})::text`,
    discountAmount: sales.discountAmount,
    deliveryCharge: sales.deliveryCharge,
    donation: sales.donation,
    total: sales.total,
    orderNumber: sales.orderNumber,
    addedBy: sales.addedBy,
  }) satisfies Record<keyof ExportedSale, SQLWrapper>;

/** The columns of a sale line, as {@link ExportedSaleLine} (amounts as `numeric` text). */
const lineColumns = {
  saleId: saleLines.saleId,
  productId: saleLines.productId,
  productName: saleLines.productName,
  quantity: saleLines.quantity,
  unitPrice: saleLines.unitPrice,
  lineTotal: saleLines.lineTotal,
} satisfies Record<keyof ExportedSaleLine, SQLWrapper>;

/** `columns` each named after its key, so that plain SQL rows come keyed as the object's keys. */
const aliased = (columns: Record<string, SQLWrapper>) =>
  Object.fromEntries(Object.entries(columns).map(([key, column]) => [key, sql`${column}`.as(key)]));

const aliasedLineColumns = aliased(lineColumns);

/** The export's order: newest first, ties by id (the keyset of the batches). */
const newestFirst = [desc(sales.addedOn), desc(sales.id)] as const;

/**
 * `selection` of the sales matching `where`, with their subscriber and currency: the keyset batches
 * and the COPY statements (one row per sale or per line) share it.
 */
function matchingSales(db: Executor, selection: Record<string, SQL.Aliased>, where: SQL | undefined) {
  return db
    .select(selection)
    .from(sales)
    .innerJoin(subscribers, eq(subscribers.id, sales.subscriberId))
    .innerJoin(currencies, eq(currencies.id, sales.currencyId))
    .where(where)
    .$dynamic();
}

/** Where a batch of sales ends: the next starts after it in (added_on, id) descending order. */
type SaleCursor = { addedOn: string; id: number };

const cursorOf = (sale: ExportedSale): SaleCursor => ({ addedOn: sale.addedOnCursor, id: sale.id });

/**
 * Up to `limit` matching sales after `after`, newest first. The cursor is a row comparison, which
 * PostgreSQL reads as a range of the (added_on, id) index: each batch starts where the last ended
 * instead of skipping the rows before it (the speed goal: CSV within 3× of COPY). Run as plain SQL: the
 * rows are text for the CSV as the driver gives them, and mapping hundreds of thousands of them
 * through Drizzle's result mapping cost a tenth of the export.
 */
function salesBatch(
  db: Executor,
  where: SQL | undefined,
  after: SaleCursor | undefined,
  limit: number,
  timeZone: string,
) {
  return queryRows<ExportedSale>(
    db,
    matchingSales(
      db,
      aliased(saleColumnsIn(timeZone)),
      and(
        where,
        after
          ? sql`(${sales.addedOn}, ${sales.id}) < (${after.addedOn}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
      .orderBy(...newestFirst)
      .limit(limit)
      .getSQL(),
  );
}

/**
 * The lines of the given sales, in sale then line order (plain SQL rows, as for the sales). The ids go
 * as one array literal: a thousand separate parameters made building the statement cost more than
 * running it.
 */
function linesOf(db: Executor, saleIds: number[]): Promise<ExportedSaleLine[]> {
  if (saleIds.length === 0) return Promise.resolve([]);
  return queryRows<ExportedSaleLine>(
    db,
    db
      .select(aliasedLineColumns)
      .from(saleLines)
      .where(sql`${saleLines.saleId} = any(${intArrayLiteral(saleIds)}::int[])`)
      .orderBy(asc(saleLines.saleId), asc(saleLines.position))
      .getSQL(),
  );
}

/** A key of the detailed export's rows: the sale's columns and its line's. */
export type ExportedSaleLineKey = keyof ExportedSale | keyof ExportedSaleLine;

/** Streams for the sales exports (part 2 §7): keyset pages, never the whole table in memory. */
/** The exports' SQL; dates and day filters are days of `timeZone` (docs/decisions/012). */
export function createSalesExportRepository({
  timeZone = DEFAULT_TIME_ZONE,
  clock = systemClock,
}: {
  timeZone?: string;
  /** Whose today the payment status filter compares with. */
  clock?: Clock;
} = {}) {
  const saleColumns = saleColumnsIn(timeZone);
  /** The filter's WHERE clause, a payment status judged on the organisation's today. */
  const filterSql = (filter: SaleFilter) =>
    saleFilterSql(filter, timeZone, calendarDay(clock.now(), timeZone));
  return {
    /** Matching sales, newest first, read in keyset batches of `batchSize` (1000). */
    streamSales: (db: Executor, filter: SaleFilter, { batchSize = BATCH }: { batchSize?: number } = {}) => {
      const where = filterSql(filter);
      return keysetRows(
        batchSize,
        (after: SaleCursor | undefined) => salesBatch(db, where, after, batchSize, timeZone),
        cursorOf,
      );
    },

    /**
     * Matching sales, newest first, each as `{ sale, lines }` with its lines in order, read in keyset
     * batches of `batchSize` sales: a batch's lines are read with it, so the next batch and its lines
     * are being read while the current one is written.
     */
    streamSalesWithLines: (
      db: Executor,
      filter: SaleFilter,
      { batchSize = BATCH }: { batchSize?: number } = {},
    ) => {
      const where = filterSql(filter);
      return keysetRows(
        batchSize,
        async (after: SaleCursor | undefined) => {
          const batch = await salesBatch(db, where, after, batchSize, timeZone);
          const lines = await linesOf(
            db,
            batch.map((sale) => sale.id),
          );
          const bySale = new Map<number, ExportedSaleLine[]>();
          for (const line of lines) {
            const list = bySale.get(line.saleId);
            if (list) list.push(line);
            else bySale.set(line.saleId, [line]);
          }
          return batch.map((sale) => ({ sale, lines: bySale.get(sale.id) ?? [] }));
        },
        (entry) => cursorOf(entry.sale),
      );
    },

    /**
     * The sales export written by PostgreSQL (`COPY … TO STDOUT`, see copyCsvStream): the matching
     * sales newest first, one CSV row each under `columns` (keys of {@link ExportedSale} and their
     * headers, the list csvStream takes), the same bytes as csvStream over {@link streamSales}.
     * `dialect` as csvStream's. Resolves to undefined on PGlite, where the caller uses streamSales (the
     * speed goal: CSV within 3× of COPY; part 2 §7 Sales exports).
     */
    copySalesCsv: (
      db: Executor,
      filter: SaleFilter,
      columns: ReadonlyArray<CsvColumn<keyof ExportedSale>>,
      dialect: CsvDialect,
    ) =>
      copyCsvStream(
        db,
        csvCopyQuery(columns, saleColumns, dialect, (selection) =>
          matchingSales(db, selection, filterSql(filter))
            .orderBy(...newestFirst)
            .getSQL(),
        ),
        dialect,
      ),

    /**
     * The detailed export written by PostgreSQL, as {@link copySalesCsv}: one CSV row per line of the
     * matching sales (sales newest first, lines in order; a sale without lines has no row), under
     * `columns` taken from the sale's and the line's columns; the same bytes as csvStream over the
     * rows the route builds from {@link streamSalesWithLines}. Undefined on PGlite.
     */
    copySaleLinesCsv: (
      db: Executor,
      filter: SaleFilter,
      columns: ReadonlyArray<CsvColumn<ExportedSaleLineKey>>,
      dialect: CsvDialect,
    ) =>
      copyCsvStream(
        db,
        csvCopyQuery(columns, { ...saleColumns, ...lineColumns }, dialect, (selection) =>
          matchingSales(db, selection, filterSql(filter))
            .innerJoin(saleLines, eq(saleLines.saleId, sales.id))
            .orderBy(...newestFirst, asc(saleLines.position))
            .getSQL(),
        ),
        dialect,
      ),

    /** Per product and currency: items sold and amount, for sales added from day `from` to day `to` included. */
    totalsByProduct: (db: Executor, from: string, to: string) =>
      db
        .select({
          productId: saleLines.productId,
          productName: sql<string>`min(${saleLines.productName})`,
          currency: currencies.symbol,
          quantity: sql<number>`sum(${saleLines.quantity})::int`,
          amount: sql<string>`sum(${saleLines.lineTotal})`,
          sales: sql<number>`count(distinct ${sales.id})::int`,
        })
        .from(saleLines)
        .innerJoin(sales, eq(sales.id, saleLines.saleId))
        .innerJoin(currencies, eq(currencies.id, sales.currencyId))
        .where(
          and(
            gte(sales.addedOn, startOfCalendarDay(from, timeZone)),
            lt(sales.addedOn, startOfCalendarDay(nextCalendarDay(to), timeZone)),
          ),
        )
        .groupBy(saleLines.productId, currencies.symbol)
        .orderBy(sql`min(fold_text(${saleLines.productName}))`, asc(currencies.symbol)),
  };
}

export type SalesExportRepository = ReturnType<typeof createSalesExportRepository>;
