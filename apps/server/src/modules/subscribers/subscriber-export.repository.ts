import { DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
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

/** A subscriber's tag names, sorted and joined with ", " ('' without tags). */
const tagNames = sql<string>`coalesce((
  select string_agg(${tags.name}, ', ' order by fold_text(${tags.name}))
    from ${subscriberTags} inner join ${tags} on ${tags.id} = ${subscriberTags.tagId}
   where ${subscriberTags.subscriberId} = ${subscribers.id}), '')`;

const cursorColumns = {
  id: subscribers.id,
  searchLastName: subscribers.searchLastName,
  searchFirstName: subscribers.searchFirstName,
};

/**
 * SQL of the subscriber exports (part 2 §7 `GET /api/subscribers/export`), read in keyset-paged batches;
 * the day filters are days of `timeZone` (docs/decisions/012).
 */
export function createSubscriberExportRepository({
  timeZone = DEFAULT_TIME_ZONE,
}: {
  timeZone?: string;
} = {}) {
  return {
    /**
     * Up to `limit` matching subscribers after `cursor`, with every field, reference names instead
     * of ids, and tag names joined. `amount` is the `numeric` text ("25.00").
     */
    detailsBatch: (
      db: Executor,
      { filter, cursor, limit }: { filter: SubscriberFilter; cursor?: SubscriberCursor; limit: number },
    ) =>
      db
        .select({
          ...cursorColumns,
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
          country: countries.name,
          billingAddress: subscribers.billingAddress,
          association: subscribers.association,
          category: categories.name,
          paymentMethod: paymentMethods.name,
          bank: subscribers.bank,
          iban: subscribers.iban,
          rum: subscribers.rum,
          currency: currencies.name,
          amount: subscribers.amount,
          subscriptionType: subscriptionTypes.name,
          copies: subscribers.copies,
          recommendedBy: subscribers.recommendedBy,
          startDate: subscribers.startDate,
          endDate: subscribers.endDate,
          inactive: subscribers.inactive,
          inactiveReason: subscribers.inactiveReason,
          onMailChimpList: subscribers.onMailChimpList,
          newsletterEmail: subscribers.newsletterEmail,
          tags: tagNames,
          notes: subscribers.notes,
          addedBy: subscribers.addedBy,
          addedOn: subscribers.addedOn,
        })
        .from(subscribers)
        .leftJoin(countries, eq(countries.id, subscribers.countryId))
        .leftJoin(categories, eq(categories.id, subscribers.categoryId))
        .leftJoin(paymentMethods, eq(paymentMethods.id, subscribers.paymentMethodId))
        .leftJoin(currencies, eq(currencies.id, subscribers.currencyId))
        .leftJoin(subscriptionTypes, eq(subscriptionTypes.id, subscribers.subscriptionTypeId))
        .where(and(subscriberFilterSql(filter, timeZone), afterCursor(cursor)))
        .orderBy(...subscriberOrder)
        .limit(limit),

    /** Up to `limit` matching subscribers after `cursor` that have an email address: names and address. */
    emailsBatch: (
      db: Executor,
      { filter, cursor, limit }: { filter: SubscriberFilter; cursor?: SubscriberCursor; limit: number },
    ) =>
      db
        .select({
          ...cursorColumns,
          firstName: subscribers.firstName,
          lastName: subscribers.lastName,
          email: subscribers.email,
        })
        .from(subscribers)
        .where(and(subscriberFilterSql(filter, timeZone), ne(subscribers.email, ''), afterCursor(cursor)))
        .orderBy(...subscriberOrder)
        .limit(limit),
  };
}

export type SubscriberExportRepository = ReturnType<typeof createSubscriberExportRepository>;
export type SubscriberDetailsRow = Awaited<ReturnType<SubscriberExportRepository['detailsBatch']>>[number];
export type SubscriberEmailRow = Awaited<ReturnType<SubscriberExportRepository['emailsBatch']>>[number];
