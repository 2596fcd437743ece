import { and, asc, count, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../products/products.table.ts';
import { countries } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';

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
        .orderBy(asc(sql`lower(${products.name})`), asc(products.id)),

    /** Subscribers still on the mailing list and not deleted, per country, most first. */
    countActiveSubscribersByCountry: (db: Executor) =>
      db
        .select({ label: sql<string>`coalesce(${countries.name}, ${NO_COUNTRY_LABEL})`, value: count() })
        .from(subscribers)
        .leftJoin(countries, eq(countries.id, subscribers.countryId))
        .where(and(eq(subscribers.inactive, false), eq(subscribers.hidden, false)))
        .groupBy(countries.name)
        .orderBy(desc(count()), asc(sql`coalesce(${countries.name}, ${NO_COUNTRY_LABEL})`)),
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
