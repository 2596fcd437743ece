import type { ExportSource } from '@back-office/contract/exports';
import { customType, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { jobs } from '../jobs/jobs.table.ts';
import { users } from '../users/users.table.ts';

/** Binary data, as a Buffer whichever driver reads it (node-postgres gives a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A large export (contract `exports`): written by its job (`jobs.id`), downloaded by the user who asked
 * for it until `expiresAt`. The export's state and progress are its job's.
 */
export const exportFiles = pgTable(
  'export_files',
  {
    jobId: integer()
      .primaryKey()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text().$type<ExportSource>().notNull(),
    fileName: text().notNull(),
    contentType: text().notNull(),
    /** Rows and bytes of the written file; null until it is. */
    rows: integer(),
    bytes: integer(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('export_files_user_idx').on(table.userId),
    index('export_files_expires_idx').on(table.expiresAt),
  ],
);

/** The file of an export in pieces of about a megabyte, so that neither writing nor reading holds it whole. */
export const exportFileChunks = pgTable(
  'export_file_chunks',
  {
    jobId: integer()
      .notNull()
      .references(() => exportFiles.jobId, { onDelete: 'cascade' }),
    seq: integer().notNull(),
    data: bytea().notNull(),
  },
  (table) => [primaryKey({ columns: [table.jobId, table.seq] })],
);

export type ExportFileRow = typeof exportFiles.$inferSelect;
