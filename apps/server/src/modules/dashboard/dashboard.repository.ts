import { and, asc, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { foldSql } from '../../lib/search-text.ts';
import { products } from '../products/products.table.ts';
import { countries } from '../reference-lists/reference-lists.table.ts';
import { subscriberCountryCounts } from '../subscribers/subscribers.table.ts';

/** Label of the bar for active subscribers with no country. */
export const NO_COUNTRY_LABEL = 'No country';

/** The dashboard's two queries (part 1 §2 Dashboard, §7 Dashboard). */
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
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
