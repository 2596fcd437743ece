import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { likeName } from '../../lib/search-text.ts';
import {
  categories,
  countries,
  currencies,
  paymentMethods,
  subscriptionTypes,
  tags,
} from '../reference-lists/reference-lists.table.ts';

/**
 * The subscriber register (part 2 §3 Subscriber). Reference ids are null for "none" (0 on the wire).
 * `hidden` is the soft delete; `version` guards against two people overwriting each other.
 */
export const subscribers = pgTable(
  'subscribers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    title: text().notNull().default(''),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull().default(''),
    phone: text().notNull().default(''),
    mobile: text().notNull().default(''),
    fax: text().notNull().default(''),
    address1: text().notNull().default(''),
    address2: text().notNull().default(''),
    address3: text().notNull().default(''),
    town: text().notNull().default(''),
    postcode: text().notNull().default(''),
    billingAddress: text().notNull().default(''),
    notes: text().notNull().default(''),
    association: text().notNull().default(''),
    inactive: boolean().notNull().default(false),
    inactiveReason: text().notNull().default(''),
    rum: text().notNull().default(''),
    countryId: integer().references(() => countries.id),
    paymentMethodId: integer().references(() => paymentMethods.id),
    categoryId: integer().references(() => categories.id),
    subscriptionTypeId: integer().references(() => subscriptionTypes.id),
    currencyId: integer()
      .notNull()
      .references(() => currencies.id),
    recommendedBy: text().notNull().default(''),
    copies: integer().notNull().default(0),
    bank: text().notNull().default(''),
    iban: text().notNull().default(''),
    amount: numeric({ precision: 12, scale: 2 }).notNull().default('0'),
    startDate: date({ mode: 'string' }),
    endDate: date({ mode: 'string' }),
    onMailChimpList: boolean().notNull().default(false),
    newsletterEmail: text().notNull().default(''),
    /** When and how the subscriber agreed to receive emails (GDPR art. 7); null and '' when not recorded. */
    emailConsentDate: date({ mode: 'string' }),
    emailConsentSource: text().notNull().default(''),
    addedBy: text().notNull().default(''),
    addedOn: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    hidden: boolean().notNull().default(false),
    /** For a subscriber merged into another (and hidden): that one. Its old id leads there. */
    mergedIntoId: integer().references((): AnyPgColumn => subscribers.id),
    version: integer().notNull().default(1),
    /** Folded copies for case- and accent-insensitive prefix search (lib/search-text.ts), collated "C". */
    searchFirstName: text().notNull().default(''),
    searchLastName: text().notNull().default(''),
    searchTown: text().notNull().default(''),
    searchPostcode: text().notNull().default(''),
    searchAssociation: text().notNull().default(''),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the identity was erased (docs/decisions/019); null while it never was. Irreversible. */
    anonymisedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [
    /**
     * The name order, then the columns most searches filter on: a search walks it from the index alone
     * and reads full rows for its page only (search speed goal at a million subscribers).
     */
    index('subscribers_search_name_idx').on(
      table.searchLastName,
      table.searchFirstName,
      table.id,
      table.hidden,
      table.countryId,
      table.categoryId,
    ),
    index('subscribers_search_first_name_idx').on(table.searchFirstName),
    /**
     * A town's or a postcode's subscribers with the name order's keys: a search by either collects its
     * matches from the index alone (migration 0059).
     */
    index('subscribers_town_name_idx').on(
      table.searchTown,
      table.searchLastName,
      table.searchFirstName,
      table.id,
      table.hidden,
    ),
    index('subscribers_postcode_name_idx').on(
      table.searchPostcode,
      table.searchLastName,
      table.searchFirstName,
      table.id,
      table.hidden,
    ),
    index('subscribers_iban_compact_idx')
      .on(sql`upper(replace(${table.iban}, ' ', ''))`)
      .where(sql`${table.iban} <> ''`),
    index('subscribers_search_association_idx').on(table.searchAssociation),
    /**
     * Visible subscribers by when they were added: a search by "added after" or "added before" counts
     * its matches from the index alone (migration 0061).
     */
    index('subscribers_visible_added_on_idx').on(table.addedOn, table.id).where(sql`not ${table.hidden}`),
    /** Duplicates of an imported or new subscriber are found by email and by IBAN. */
    index('subscribers_email_idx').on(sql`lower(${table.email})`).where(sql`${table.email} <> ''`),
    index('subscribers_iban_idx').on(table.iban).where(sql`${table.iban} <> ''`),
    index('subscribers_merged_into_idx').on(table.mergedIntoId).where(sql`${table.mergedIntoId} is not null`),
    /**
     * Names match anywhere from 3 characters on, through trigram indexes (pg_trgm, migration 0022); the
     * last name's holds the country too (btree_gin, 0053), for a name searched within a country.
     */
    index('subscribers_country_last_name_trgm_idx').using(
      'gin',
      table.countryId,
      table.searchLastName.op('gin_trgm_ops'),
    ),
    index('subscribers_search_first_name_trgm_idx').using('gin', table.searchFirstName.op('gin_trgm_ops')),
    index('subscribers_search_association_trgm_idx').using('gin', table.searchAssociation.op('gin_trgm_ops')),
    /**
     * With the id, a country's subscribers come from the index alone (donation search by country,
     * within its speed goal).
     */
    index('subscribers_country_idx').on(table.countryId, table.id),
    /**
     * A subscriber's folded last name by id: walking the newest gifts or sales for a name with many
     * matches checks each one's donor from this small index alone, not from the table (migration 0058).
     */
    index('subscribers_id_last_name_idx').on(table.id, table.searchLastName),
    index('subscribers_category_idx').on(table.categoryId),
    index('subscribers_payment_method_idx').on(table.paymentMethodId),
    index('subscribers_subscription_type_idx').on(table.subscriptionTypeId),
    index('subscribers_currency_idx').on(table.currencyId),
    /**
     * Visible subscribers by id: counting the matches of a tag is then two index-only scans (search
     * speed goal).
     */
    index('subscribers_visible_id_idx').on(table.id).where(sql`not ${table.hidden}`),
    /**
     * Deleted subscribers by id (few): a tag's members are counted from the tag's index alone, less
     * these (see `tagMembers` in subscribers.repository.ts).
     */
    index('subscribers_hidden_id_idx').on(table.id).where(sql`${table.hidden}`),
    /**
     * Visible subscribers of a country by id: a tag and a country are counted by merging two index-only
     * scans (12 ms instead of 53 ms for the first 10,001 matches at a million subscribers).
     */
    index('subscribers_visible_country_idx').on(table.countryId, table.id).where(sql`not ${table.hidden}`),
    /**
     * The dashboard's subscribers per country, every 30 s per screen, from the index alone (mixed-load
     * benchmark).
     */
    index('subscribers_mailing_list_country_idx')
      .on(table.countryId)
      .where(sql`not ${table.inactive} and not ${table.hidden}`),
    /** The few anonymised subscribers, for the purge of their documents past retention (docs/decisions/019). */
    index('subscribers_anonymised_idx').on(table.id).where(sql`${table.anonymisedAt} is not null`),
    /**
     * Visible records not changed since a day, oldest first: where the retention report of inactive
     * subscribers starts (GDPR art. 5(1)(e)), without reading the whole register.
     */
    index('subscribers_visible_updated_at_idx').on(table.updatedAt, table.id).where(sql`not ${table.hidden}`),
    /** Search by category, counted over visible subscribers only (mixed-load benchmark). */
    index('subscribers_visible_category_idx')
      .on(table.categoryId, table.inactive)
      .where(sql`not ${table.hidden}`),
  ],
);

/**
 * How many subscribers are on the mailing list (not inactive, not deleted) per country, `countryId` 0
 * for none: the dashboard's "active subscribers per country" (part 1 §7 Dashboard) read in a
 * millisecond instead of counting the register on every refresh (mixed-load benchmark). Kept exact by
 * triggers on `subscribers` (migrations 0011 and 0029: per statement for inserts and deletes), so it changes in the same transaction as the subscriber.
 */
export const subscriberCountryCounts = pgTable('subscriber_country_counts', {
  countryId: integer().primaryKey(),
  active: integer().notNull().default(0),
});

/**
 * The distinct folded last names of the register (`search_last_name`), with their own trigram index: a
 * last name searched anywhere is matched against them, then its bearers are read from the name index
 * alone ({@link lastNameSql}). Kept by triggers on `subscribers` (migration 0056): a name is listed while
 * at least one subscriber bears it.
 */
export const subscriberLastNames = pgTable(
  'subscriber_last_names',
  { searchLastName: text().primaryKey() },
  (table) => [index('subscriber_last_names_trgm_idx').using('gin', table.searchLastName.op('gin_trgm_ops'))],
);

/**
 * How many visible subscribers bear each folded last name in each country (`countryId` 0: none), as
 * signed deltas: triggers on `subscribers` insert a row per change (migration 0062), so that no writer
 * waits for another on a counter, and a repeated job folds each name's rows into one
 * ({@link compactSubscriberNameCounts}). A name's count is the sum of its rows' `bearers`.
 */
export const subscriberNameCounts = pgTable(
  'subscriber_name_counts',
  {
    searchLastName: text().notNull(),
    countryId: integer().notNull(),
    bearers: integer().notNull(),
    /** True for a row the job wrote, the sum of a name's rows; false for a trigger's delta. */
    folded: boolean().notNull().default(false),
  },
  (table) => [
    index('subscriber_name_counts_name_idx').on(table.searchLastName, table.countryId, table.bearers),
    /** The names and countries with deltas left to fold. */
    index('subscriber_name_counts_unfolded_idx')
      .on(table.searchLastName, table.countryId)
      .where(sql`not ${table.folded}`),
  ],
);

/**
 * The last-name filter of a search over `subscribers` ({@link likeName}: anywhere from 3 characters on,
 * else a prefix), on `column` (`search_last_name`, or a gift's or a sale's copy of it). `throughNameList`:
 * a name searched anywhere is matched against {@link subscriberLastNames}, and its bearers found by
 * equality in the column's index (about 5× quicker to collect the matches, docs/decisions/016); without
 * it the column itself is compared, which gives the planner the column's statistics (its estimate of the
 * matches) and lets it walk an order's index when they are many.
 */
export function lastNameSql(
  value: string,
  {
    throughNameList = false,
    column = subscribers.searchLastName,
  }: { throughNameList?: boolean; column?: AnyPgColumn } = {},
): SQL {
  const pattern = likeName(value);
  if (!throughNameList || !pattern.startsWith('%')) return sql`${column} like ${pattern}`;
  // An array read first, not `in (select …)`: the names' table statistics then cannot turn the plan
  // into a hash join over every subscriber (after 100,000 imported names were undone, 163 ms instead
  // of 10 ms for "sch" at 200,000 subscribers, until the table was vacuumed).
  return sql`${column} = any(array(select ${subscriberLastNames.searchLastName} from ${subscriberLastNames} where ${subscriberLastNames.searchLastName} like ${pattern}))`;
}

/** Custom tags of a subscriber (part 2 §2.2 panel 7). */
export const subscriberTags = pgTable(
  'subscriber_tags',
  {
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => tags.id),
  },
  (table) => [
    primaryKey({ columns: [table.subscriberId, table.tagId] }),
    /** A tag's subscribers in id order, without reading the table (search by tag, within its speed goal). */
    index('subscriber_tags_tag_idx').on(table.tagId, table.subscriberId),
  ],
);

/**
 * Every action on a subscriber, in plain words (part 2 §2.3; "History" in
 * docs/spec/design.md §Contract decisions the spec leaves open).
 */
export const subscriberHistory = pgTable(
  'subscriber_history',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    userName: text().notNull(),
    description: text().notNull(),
  },
  (table) => [index('subscriber_history_subscriber_idx').on(table.subscriberId, table.at, table.id)],
);
