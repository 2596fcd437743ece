import { and, asc, desc, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { keysetRows } from '../../lib/keyset-rows.ts';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import { type SaleFilter, saleFilterSql } from './sales.repository.ts';
import { saleLines, sales } from './sales.table.ts';

const BATCH = 1000;

const saleColumns = {
  id: sales.id,
  ref: sales.ref,
  addedOn: sales.addedOn,
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
  subTotal: sales.subTotal,
  discountPercentage: sales.discountPercentage,
  discountAmount: sales.discountAmount,
  deliveryCharge: sales.deliveryCharge,
  donation: sales.donation,
  total: sales.total,
  orderNumber: sales.orderNumber,
  addedBy: sales.addedBy,
};

/** Streams for the sales exports (part 2 §7; issue 6 §5): keyset pages, never the whole table in memory. */
export function createSalesExportRepository() {
  return {
    /** Matching sales, newest first, read in keyset batches of 1000. */
    streamSales: (db: Executor, filter: SaleFilter) =>
      keysetRows(
        BATCH,
        (after: { addedOn: Date; id: number } | undefined) =>
          db
            .select(saleColumns)
            .from(sales)
            .innerJoin(subscribers, eq(subscribers.id, sales.subscriberId))
            .innerJoin(currencies, eq(currencies.id, sales.currencyId))
            .where(
              and(
                saleFilterSql(filter),
                after
                  ? or(
                      lt(sales.addedOn, after.addedOn),
                      and(eq(sales.addedOn, after.addedOn), lt(sales.id, after.id)),
                    )
                  : undefined,
              ),
            )
            .orderBy(desc(sales.addedOn), desc(sales.id))
            .limit(BATCH),
        (sale) => ({ addedOn: sale.addedOn, id: sale.id }),
      ),

    /** The lines of the given sales, in sale then line order. */
    linesOf: (db: Executor, saleIds: number[]) =>
      saleIds.length === 0
        ? Promise.resolve([])
        : db
            .select()
            .from(saleLines)
            .where(sql`${saleLines.saleId} in (${sql.join(saleIds, sql`, `)})`)
            .orderBy(asc(saleLines.saleId), asc(saleLines.position)),

    /** Per product and currency: items sold and amount, for sales added in [from, to + 1 day). */
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
            gte(sales.addedOn, new Date(`${from}T00:00:00Z`)),
            lt(sales.addedOn, new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000)),
          ),
        )
        .groupBy(saleLines.productId, currencies.symbol)
        .orderBy(sql`min(lower(${saleLines.productName}))`, asc(currencies.symbol)),
  };
}

export type SalesExportRepository = ReturnType<typeof createSalesExportRepository>;
export type ExportedSale =
  ReturnType<SalesExportRepository['streamSales']> extends AsyncGenerator<infer Row> ? Row : never;
