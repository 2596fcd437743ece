import { and, asc, desc, eq, gt, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { foldSql } from '../../lib/search-text.ts';
import { products } from '../products/products.table.ts';
import { countries, currencies } from '../reference-lists/reference-lists.table.ts';
import { paymentStatusSql } from '../sales/sale-payments.repository.ts';
import { sales } from '../sales/sales.table.ts';
import { subscriberCountryCounts } from '../subscribers/subscribers.table.ts';

/** Label of the bar for active subscribers with no country. */
export const NO_COUNTRY_LABEL = 'No country';

/** The dashboard's queries (part 1 §2 Dashboard, §7 Dashboard). */
export function createDashboardRepository() {
  return {
    /** Active, undeleted products whose stock is at or below their minimum, by name. */
    listLowStockProducts: (db: Executor) =>
      db
        .select({ key: products.name, value: products.currentStock })
        .from(products)
        .where(
          and(
            isNull(products.deletedAt),
            eq(products.active, true),
            lte(products.currentStock, products.minStockAlert),
          ),
        )
        .orderBy(asc(foldSql(products.name)), asc(products.id)),

    /**
     * Subscribers still on the mailing list and not deleted, per country name, most first; read from
     * the counts the database keeps (`subscriber_country_counts`), not by counting the register.
     */
    countActiveSubscribersByCountry: (db: Executor) => {
      const label = sql<string>`coalesce(${countries.name}, ${NO_COUNTRY_LABEL})`;
      const active = sql<number>`sum(${subscriberCountryCounts.active})::int`;
      return db
        .select({ label, value: active })
        .from(subscriberCountryCounts)
        .leftJoin(countries, eq(countries.id, subscriberCountryCounts.countryId))
        .where(gt(subscriberCountryCounts.active, 0))
        .groupBy(countries.name)
        .orderBy(desc(active), asc(foldSql(label)));
    },

    /**
     * The overdue invoices ({@link paymentStatusSql} on `today`, `YYYY-MM-DD` in `timeZone`) per
     * currency: how many, and the sum still to pay (`numeric` text), the largest sum first. Reads the
     * partial index of the open invoices.
     */
    overdueInvoicesByCurrency: (db: Executor, timeZone: string, today: string) => {
      const remaining = sql<string>`sum(${sales.total} - ${sales.paidAmount})::text`;
      return db
        .select({ currencySymbol: currencies.symbol, count: sql<number>`count(*)::int`, remaining })
        .from(sales)
        .innerJoin(currencies, eq(currencies.id, sales.currencyId))
        .where(
          and(
            isNotNull(sales.invoiceIssuedAt),
            sql`${sales.paidAmount} < ${sales.total}`,
            sql`${paymentStatusSql(timeZone, today)} = 'overdue'`,
          ),
        )
        .groupBy(currencies.symbol)
        .orderBy(desc(sql`sum(${sales.total} - ${sales.paidAmount})`));
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
