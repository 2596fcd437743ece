import type { PlanFrequency, PlanStatus } from '@back-office/contract/plans';
import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { mandates } from '../mandates/mandates.table.ts';
import { categories } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';

/**
 * Recurring gifts by SEPA direct debit (migration 0042): `amount` euros (`numeric` text, "25.00")
 * collected under `mandate_id` every month, quarter, half year or year on `day_of_month` (1 to 28, so
 * that every month has it), from `start_on` to `end_on` (`YYYY-MM-DD`, null: no end). Each collected
 * installment becomes a donation of `category_id`'s kind. Frequencies and statuses: contract `plans`.
 */
export const plans = pgTable(
  'plans',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    mandateId: integer()
      .notNull()
      .references(() => mandates.id),
    amount: numeric({ precision: 12, scale: 2 }).notNull(),
    frequency: text().$type<PlanFrequency>().notNull(),
    dayOfMonth: integer().notNull(),
    startOn: date({ mode: 'string' }).notNull(),
    endOn: date({ mode: 'string' }),
    categoryId: integer().references(() => categories.id),
    status: text().$type<PlanStatus>().notNull().default('active'),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: text().notNull(),
  },
  (table) => [
    index('plans_subscriber_idx').on(table.subscriberId),
    index('plans_mandate_idx').on(table.mandateId),
    // The collections read the active plans.
    index('plans_active_idx').on(table.dayOfMonth).where(sql`${table.status} = 'active'`),
    check('plans_amount_check', sql`${table.amount} > 0`),
    check('plans_day_of_month_check', sql`${table.dayOfMonth} between 1 and 28`),
    check(
      'plans_frequency_check',
      sql`${table.frequency} in ('monthly', 'quarterly', 'halfYearly', 'yearly')`,
    ),
    check('plans_status_check', sql`${table.status} in ('active', 'paused', 'ended')`),
    check('plans_dates_check', sql`${table.endOn} is null or ${table.endOn} >= ${table.startOn}`),
  ],
);

export type PlanRow = typeof plans.$inferSelect;
