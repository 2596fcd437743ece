import type {
  ImportKind,
  ImportMapping,
  ImportOptions,
  ImportRowError,
  ImportStatus,
} from '@back-office/contract/imports';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** The column headers and first values of an import's file (contract `importColumnSchema`). */
export type StoredColumn = { index: number; header: string; samples: string[] };

/**
 * Imports (contract `imports`): one row per uploaded file, from its upload to its commit and undo. The
 * file itself is not kept: its rows are, in `import_rows`.
 */
export const imports = pgTable(
  'imports',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().$type<ImportKind>().notNull(),
    fileName: text().notNull(),
    status: text().$type<ImportStatus>().notNull().default('uploaded'),
    columns: jsonb().$type<StoredColumn[]>().notNull(),
    rowCount: integer().notNull(),
    mapping: jsonb().$type<ImportMapping>().notNull(),
    options: jsonb().$type<ImportOptions>().notNull(),
    /** Totals of the dry run of the current mapping; null until one ran. */
    dryValid: integer(),
    dryInvalid: integer(),
    dryDuplicates: integer(),
    /** The commit's job, and what it did. */
    jobId: integer(),
    processed: integer().notNull().default(0),
    total: integer().notNull().default(0),
    created: integer().notNull().default(0),
    merged: integer().notNull().default(0),
    skipped: integer().notNull().default(0),
    errors: jsonb().$type<ImportRowError[]>().notNull().default([]),
    failure: text(),
    createdBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    committedAt: timestamp({ withTimezone: true, mode: 'date' }),
    undoneAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [
    check(
      'imports_status_check',
      sql`${table.status} in ('uploaded', 'checked', 'queued', 'running', 'committed', 'failed', 'undone', 'expired')`,
    ),
    index('imports_created_at_idx').on(table.createdAt),
  ],
);

export type ImportRow = typeof imports.$inferSelect;

/**
 * The data rows of an import's file (`row_number` 1-based, `cells` the strings of its columns), what
 * the dry run found for each (`status`, `errors`, `match_id`, `match_reasons`), and what the commit did
 * (`decision` asked, `action` done; `record_id` the subscriber created or merged into; `record_version` its version after the
 * commit; `before` the merged subscriber's fields and tags before it), which undo reads.
 */
export const importRows = pgTable(
  'import_rows',
  {
    importId: integer()
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    rowNumber: integer().notNull(),
    cells: jsonb().$type<string[]>().notNull(),
    status: text().$type<'valid' | 'invalid' | 'duplicate'>(),
    errors: jsonb().$type<Array<{ field: string; message: string }>>(),
    matchId: integer(),
    matchReasons: jsonb().$type<string[]>(),
    /** What the commit was told to do with the row; null for the default (create a valid row, skip the rest). */
    decision: text().$type<'create' | 'merge' | 'skip'>(),
    action: text().$type<'created' | 'merged'>(),
    recordId: integer(),
    recordVersion: integer(),
    before: jsonb().$type<Record<string, unknown>>(),
  },
  (table) => [
    primaryKey({ columns: [table.importId, table.rowNumber] }),
    index('import_rows_status_idx').on(table.importId, table.status, table.rowNumber),
  ],
);
