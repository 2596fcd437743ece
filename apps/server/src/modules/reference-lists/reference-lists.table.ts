import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/** The six reference lists (part 1 §3). Names are unique per list, case-insensitive. */

export const subscriptionTypes = pgTable(
  'subscription_types',
  { id: integer().primaryKey().generatedAlwaysAsIdentity(), name: text().notNull() },
  (table) => [uniqueIndex('subscription_types_name_unique').on(sql`lower(${table.name})`)],
);

export const categories = pgTable(
  'categories',
  { id: integer().primaryKey().generatedAlwaysAsIdentity(), name: text().notNull() },
  (table) => [uniqueIndex('categories_name_unique').on(sql`lower(${table.name})`)],
);

export const countries = pgTable(
  'countries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    order: integer().notNull().default(100),
    /** ISO 3166-1 alpha-2 (`FR`, `CH`), unique when set; receipts choose their form by it (docs/decisions/022). */
    isoCode: text(),
  },
  (table) => [
    uniqueIndex('countries_name_unique').on(sql`lower(${table.name})`),
    uniqueIndex('countries_iso_code_unique').on(table.isoCode).where(sql`${table.isoCode} is not null`),
    check('countries_iso_code_check', sql`${table.isoCode} ~ '^[A-Z]{2}$'`),
  ],
);

export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    /** Direct debit (prélèvement SEPA): part 2's donation search filters on it. */
    directDebit: boolean().notNull().default(false),
  },
  (table) => [uniqueIndex('payment_methods_name_unique').on(sql`lower(${table.name})`)],
);

export const currencies = pgTable(
  'currencies',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    symbol: text().notNull(),
    /** ISO 4217 (`EUR`, `CHF`), unique when set. */
    isoCode: text(),
  },
  (table) => [
    uniqueIndex('currencies_name_unique').on(sql`lower(${table.name})`),
    uniqueIndex('currencies_iso_code_unique').on(table.isoCode).where(sql`${table.isoCode} is not null`),
    check('currencies_iso_code_check', sql`${table.isoCode} ~ '^[A-Z]{3}$'`),
  ],
);

export const tags = pgTable(
  'tags',
  { id: integer().primaryKey().generatedAlwaysAsIdentity(), name: text().notNull() },
  (table) => [uniqueIndex('tags_name_unique').on(sql`lower(${table.name})`)],
);

/** Seeds already applied, by name: a restart never re-adds reference data that staff deleted or renamed. */
export const appliedSeeds = pgTable('applied_seeds', {
  name: text().primaryKey(),
});
