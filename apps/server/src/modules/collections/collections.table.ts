import type {
  CollectionFileVersion,
  CollectionLineStatus,
  CollectionSequenceType,
  CollectionStatus,
} from '@back-office/contract/collections';
import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { donations } from '../donations/donations.table.ts';
import { mandates } from '../mandates/mandates.table.ts';
import { plans } from '../plans/plans.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';

/**
 * SEPA direct-debit collections (contract `collections`, docs/decisions/029, migration 0043): the
 * installments due on `due_date` (`YYYY-MM-DD`), `draft` while lines may change, `exported` once the
 * pain.008 file (`file_xml`, written in `file_version` under `message_id`) is out, `settled` once the
 * lines became donations. At most one draft per due date (the partial unique index), which is what
 * makes two concurrent builds of the same day give one draft.
 */
export const collections = pgTable(
  'collections',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    dueDate: date({ mode: 'string' }).notNull(),
    status: text().$type<CollectionStatus>().notNull().default('draft'),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: text().notNull(),
    exportedAt: timestamp({ withTimezone: true, mode: 'date' }),
    exportedBy: text(),
    fileVersion: text().$type<CollectionFileVersion>(),
    fileXml: text(),
    messageId: text(),
    settledAt: timestamp({ withTimezone: true, mode: 'date' }),
    settledBy: text(),
  },
  (table) => [
    uniqueIndex('collections_one_draft_per_day').on(table.dueDate).where(sql`${table.status} = 'draft'`),
    index('collections_due_date_idx').on(table.dueDate),
    check('collections_status_check', sql`${table.status} in ('draft', 'exported', 'settled')`),
    check(
      'collections_file_version_check',
      sql`${table.fileVersion} is null or ${table.fileVersion} in ('pain.008.001.08', 'pain.008.001.02')`,
    ),
  ],
);

export type CollectionRow = typeof collections.$inferSelect;

/**
 * One installment of a plan in a collection: `amount` euros (`numeric` text), the sequence type
 * (rulebook AT-21), `end_to_end_id` (unique, it comes back in the bank's return files). An installment
 * (plan, due date) is in at most one collection unless removed (the partial unique index).
 */
export const collectionLines = pgTable(
  'collection_lines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    collectionId: integer()
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    planId: integer()
      .notNull()
      .references(() => plans.id),
    mandateId: integer()
      .notNull()
      .references(() => mandates.id),
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id),
    dueDate: date({ mode: 'string' }).notNull(),
    amount: numeric({ precision: 12, scale: 2 }).notNull(),
    sequenceType: text().$type<CollectionSequenceType>().notNull(),
    endToEndId: text().notNull().unique('collection_lines_end_to_end_id_key'),
    status: text().$type<CollectionLineStatus>().notNull().default('pending'),
    reasonCode: text(),
    returnedAt: timestamp({ withTimezone: true, mode: 'date' }),
    donationId: integer().references(() => donations.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('collection_lines_installment_key')
      .on(table.planId, table.dueDate)
      .where(sql`${table.status} <> 'removed'`),
    index('collection_lines_collection_idx').on(table.collectionId),
    index('collection_lines_mandate_idx').on(table.mandateId),
    index('collection_lines_subscriber_idx').on(table.subscriberId),
    index('collection_lines_donation_idx').on(table.donationId).where(sql`${table.donationId} is not null`),
    check('collection_lines_amount_check', sql`${table.amount} > 0`),
    check('collection_lines_sequence_type_check', sql`${table.sequenceType} in ('FRST', 'RCUR', 'OOFF')`),
    check(
      'collection_lines_status_check',
      sql`${table.status} in ('pending', 'removed', 'collected', 'returned', 'rejected')`,
    ),
  ],
);

export type CollectionLineRow = typeof collectionLines.$inferSelect;
