import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { countries, currencies, paymentMethods } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import { type DonationFilter, donationFilterSql, tablesReadBy } from './donations.repository.ts';
import { donations, receipts } from './donations.table.ts';

export type DonationCursor = { donationDate: string; id: number };
export type DonorCursor = {
  searchLastName: string;
  searchFirstName: string;
  subscriberId: number;
  currency: string;
};

/** SQL of the donation exports (part 2 §7 `GET /api/donations/export`), in keyset batches. */
export function createDonationsExportRepository() {
  return {
    /**
     * How many rows an export of `filter` writes: donations, or with `perDonor` donors and currencies;
     * with `cap`, counting stops at `cap + 1`.
     */
    countRows: async (
      db: Executor,
      { filter, perDonor, cap }: { filter: DonationFilter; perDonor: boolean; cap?: number },
    ): Promise<number> => {
      const limit = cap === undefined ? sql`` : sql` limit ${cap + 1}`;
      const reads = tablesReadBy(filter);
      const matches = sql`select 1 from ${donations}
        ${reads.subscribers ? sql`inner join ${subscribers} on ${subscribers.id} = ${donations.subscriberId}` : sql``}
        ${reads.paymentMethods ? sql`left join ${paymentMethods} on ${paymentMethods.id} = ${subscribers.paymentMethodId}` : sql``}
        where ${donationFilterSql(filter) ?? sql`true`}
        ${perDonor ? sql`group by ${donations.subscriberId}, ${donations.currencyId}` : sql``}${limit}`;
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from (${matches}) as matches`,
      );
      return row?.n ?? 0;
    },

    /** Up to `limit` matching donations after `cursor`, newest first. */
    donationsBatch: (
      db: Executor,
      { filter, cursor, limit }: { filter: DonationFilter; cursor?: DonationCursor; limit: number },
    ) =>
      db
        .select({
          id: donations.id,
          donationDate: donations.donationDate,
          amount: donations.amount,
          currency: currencies.symbol,
          notes: donations.notes,
          addedBy: donations.addedBy,
          addedOn: donations.addedOn,
          receiptNumber: sql<
            number | null
          >`(select ${receipts.number} from ${receipts} where ${receipts.id} = ${donations.receiptId})`,
          subscriberId: subscribers.id,
          title: subscribers.title,
          firstName: subscribers.firstName,
          lastName: subscribers.lastName,
          email: subscribers.email,
          postcode: subscribers.postcode,
          town: subscribers.town,
          country: countries.name,
          paymentMethod: paymentMethods.name,
        })
        .from(donations)
        .innerJoin(subscribers, eq(subscribers.id, donations.subscriberId))
        .innerJoin(currencies, eq(currencies.id, donations.currencyId))
        .leftJoin(paymentMethods, eq(paymentMethods.id, subscribers.paymentMethodId))
        .leftJoin(countries, eq(countries.id, subscribers.countryId))
        .where(
          and(
            donationFilterSql(filter),
            cursor
              ? or(
                  lt(donations.donationDate, cursor.donationDate),
                  and(eq(donations.donationDate, cursor.donationDate), lt(donations.id, cursor.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(donations.donationDate), desc(donations.id))
        .limit(limit),

    /**
     * Up to `limit` donors of the matching donations after `cursor`, by last then first name, one row
     * per donor and currency: name, address, email, number of gifts and their total.
     */
    donorsBatch: (
      db: Executor,
      { filter, cursor, limit }: { filter: DonationFilter; cursor?: DonorCursor; limit: number },
    ) =>
      db
        .select({
          subscriberId: subscribers.id,
          searchLastName: subscribers.searchLastName,
          searchFirstName: subscribers.searchFirstName,
          title: subscribers.title,
          firstName: subscribers.firstName,
          lastName: subscribers.lastName,
          association: subscribers.association,
          address1: subscribers.address1,
          address2: subscribers.address2,
          address3: subscribers.address3,
          postcode: subscribers.postcode,
          town: subscribers.town,
          country: countries.name,
          email: subscribers.email,
          currency: currencies.symbol,
          gifts: sql<number>`count(*)::int`,
          total: sql<string>`sum(${donations.amount})`,
        })
        .from(donations)
        .innerJoin(subscribers, eq(subscribers.id, donations.subscriberId))
        .innerJoin(currencies, eq(currencies.id, donations.currencyId))
        .leftJoin(paymentMethods, eq(paymentMethods.id, subscribers.paymentMethodId))
        .leftJoin(countries, eq(countries.id, subscribers.countryId))
        .where(
          and(
            donationFilterSql(filter),
            cursor
              ? sql`(${subscribers.searchLastName}, ${subscribers.searchFirstName}, ${subscribers.id}, ${currencies.symbol}) > (${cursor.searchLastName}, ${cursor.searchFirstName}, ${cursor.subscriberId}, ${cursor.currency})`
              : undefined,
          ),
        )
        .groupBy(subscribers.id, countries.name, currencies.symbol)
        .orderBy(subscribers.searchLastName, subscribers.searchFirstName, subscribers.id, currencies.symbol)
        .limit(limit),
  };
}

export type DonationsExportRepository = ReturnType<typeof createDonationsExportRepository>;
