import type { StatementEntryStatus } from '@back-office/contract/bank-statements';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { donations } from '../donations/donations.table.ts';
import { sales } from '../sales/sales.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';

/**
 * The booked transactions of imported bank statements (contract `bank-statements`, docs/decisions/033,
 * migration 0048): one row per bank reference `entry_ref` (unique: a file imported twice adds nothing),
 * `amount` in units of `currency` (ISO 4217), the debtor and remittance information, and what the entry
 * became (`status`): `matched` or `assigned` to `sale_id` (its payment `payment_id`) or to `donation_id`,
 * `dismissed` with `dismiss_reason`, `unmatched` while waiting for a person, `listed` for debits,
 * returns and reversals.
 */
export const bankStatementEntries = pgTable(
  'bank_statement_entries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    entryRef: text().notNull(),
    accountIban: text(),
    bookingDate: date({ mode: 'string' }).notNull(),
    valueDate: date({ mode: 'string' }),
    amount: numeric({ precision: 14, scale: 2 }).notNull(),
    currency: text().notNull(),
    direction: text().$type<'credit' | 'debit'>().notNull(),
    isReturn: boolean().notNull().default(false),
    reversal: boolean().notNull().default(false),
    debtorName: text(),
    debtorIban: text(),
    reference: text(),
    text: text().notNull().default(''),
    endToEndId: text(),
    status: text().$type<StatementEntryStatus>().notNull(),
    saleId: integer().references(() => sales.id),
    paymentId: integer(),
    donationId: integer().references(() => donations.id, { onDelete: 'set null' }),
    subscriberId: integer().references(() => subscribers.id, { onDelete: 'set null' }),
    decidedBy: text(),
    decidedAt: timestamp({ withTimezone: true, mode: 'date' }),
    dismissReason: text(),
    importedBy: text().notNull(),
    importedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    unique('bank_statement_entries_entry_ref_key').on(table.entryRef),
    index('bank_statement_entries_status_idx').on(table.status, table.bookingDate, table.id),
    // Deleting a subscriber, donation or sale looks up its entries (migration 0055).
    index('bank_statement_entries_subscriber_idx')
      .on(table.subscriberId)
      .where(sql`${table.subscriberId} is not null`),
    index('bank_statement_entries_donation_idx')
      .on(table.donationId)
      .where(sql`${table.donationId} is not null`),
    index('bank_statement_entries_sale_idx').on(table.saleId).where(sql`${table.saleId} is not null`),
    check('bank_statement_entries_direction_check', sql`${table.direction} in ('credit', 'debit')`),
    check(
      'bank_statement_entries_status_check',
      sql`${table.status} in ('matched', 'unmatched', 'assigned', 'dismissed', 'listed')`,
    ),
  ],
);

export type BankStatementEntryRow = typeof bankStatementEntries.$inferSelect;
