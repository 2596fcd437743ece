import type { DuplicateReason } from '@back-office/contract/duplicates';
import { index, integer, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';
import { subscribers } from '../subscribers/subscribers.table.ts';

/** The pairs of likely duplicates the last scan of the register found (`a_id` < `b_id`). */
export const duplicatePairs = pgTable(
  'duplicate_pairs',
  {
    aId: integer().notNull(),
    bId: integer().notNull(),
    score: real().notNull(),
    reasons: jsonb().$type<DuplicateReason[]>().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.aId, table.bId] }),
    index('duplicate_pairs_score_idx').on(table.score.desc(), table.aId, table.bId),
  ],
);

/** When each scan of the register ended, and how many pairs it found. */
export const duplicateScans = pgTable('duplicate_scans', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  finishedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  pairs: integer().notNull(),
});

/** What a merge moved to the kept subscriber: the ids of each kind of row, to move them back on undo. */
export type MovedRows = {
  donations: number[];
  sales: number[];
  receipts: number[];
  history: number[];
  /** The merged subscriber's SEPA mandates (absent from merges made before mandates existed). */
  mandates?: number[];
  /** Tags the merged subscriber had and the kept one did not. */
  tags: number[];
  /**
   * The merged subscriber had unsubscribed from bulk emails and the kept one had not: the kept one was
   * unsubscribed too (its opt-out added, "on mailing list" cleared). Annual-run items stay with the
   * merged subscriber: they record past runs.
   */
  optOut?: boolean;
};

/**
 * Each merge of two subscribers: both records as they were (save payloads with their tags), what moved,
 * the kept record's version after the merge (an undo refuses when it changed since), who and when.
 */
export const subscriberMerges = pgTable(
  'subscriber_merges',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    keepId: integer()
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    mergeId: integer()
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    keepBefore: jsonb().$type<Record<string, unknown>>().notNull(),
    mergeBefore: jsonb().$type<Record<string, unknown>>().notNull(),
    moved: jsonb().$type<MovedRows>().notNull(),
    keepVersion: integer().notNull(),
    mergedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    mergedBy: text().notNull(),
    undoneAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('subscriber_merges_merge_idx').on(table.mergeId),
    index('subscriber_merges_keep_idx').on(table.keepId),
  ],
);
