import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/** Where a rate came from: typed in by an Administrator, or imported from the ECB's file. */
export type ExchangeRateSource = 'manual' | 'ecb';

/**
 * Exchange rates (contract `exchange-rates`, docs/decisions/021): on `rate_date`, 1 euro was worth
 * `rate` units of `currency` (ISO 4217, 3 upper-case letters; the ECB's convention). One rate per
 * currency and day, never changed once stored: a tax receipt may have used it.
 */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    currency: text().notNull(),
    rateDate: date({ mode: 'string' }).notNull(),
    rate: numeric({ precision: 18, scale: 6 }).notNull(),
    source: text().$type<ExchangeRateSource>().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: text().notNull(),
  },
  (table) => [
    unique('exchange_rates_currency_rate_date_key').on(table.currency, table.rateDate),
    // The list, newest day first, without a currency filter.
    index('exchange_rates_rate_date_idx').on(table.rateDate, table.currency),
    check('exchange_rates_currency_check', sql`${table.currency} ~ '^[A-Z]{3}$'`),
    check('exchange_rates_rate_check', sql`${table.rate} > 0`),
    check('exchange_rates_source_check', sql`${table.source} in ('manual', 'ecb')`),
  ],
);

export type ExchangeRateRow = typeof exchangeRates.$inferSelect;
