import type {
  ImportField,
  ImportMapping,
  ImportOptions,
  ImportRowError,
} from '@back-office/contract/imports';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import type { CheckedRow, CommittedRow, ImportsRepository } from './imports.repository.ts';
import type { ImportRow, importRows } from './imports.table.ts';
import { type ReferenceLookup, readBoolean, readDate, readNumber } from './subscriber-import.ts';

/** A row of the file as stored at upload, with what the dry run found. */
export type StoredRow = typeof importRows.$inferSelect;

/** A row as the commit left it, which undo reads. */
export type WrittenRow = Awaited<ReturnType<ImportsRepository['committedRows']>>[number];

/** What one run over an import (a dry run, a commit or an undo) knows before it starts. */
export type RowImportContext = {
  row: ImportRow;
  lookup: ReferenceLookup;
  /** The organisation's day, `YYYY-MM-DD` (docs/decisions/012): nothing is dated after it. */
  today: string;
  timeZone: string;
  /** Who commits or undoes, for the history lines. */
  userName: string;
};

/**
 * How an import of donations, sales or products reads, checks, writes and undoes its rows (the
 * subscriber import is the service's own). The service pages through the rows in batches, runs each
 * batch through these on one connection (a dry run) or the commit's transaction, and stores what they
 * return (docs/decisions/018).
 */
export type RowImporter = {
  /**
   * Rows with the same key that follow one another belong together (the lines of one sale): a batch
   * never ends in the middle of them. Undefined for a row that stands alone.
   */
  groupKey?: (cells: readonly string[]) => string | undefined;
  /** Each row of the batch: valid, invalid (with errors per field) or a duplicate of a record. */
  check: (db: Executor, batch: StoredRow[]) => Promise<CheckedRow[]>;
  /**
   * Before the commit's transaction, in a transaction of its own: what must hold whether the commit
   * succeeds or not (the sale numbers of the file, reserved).
   */
  beforeCommit?: (db: Database) => Promise<void>;
  /**
   * Writes the rows to create or merge and counts the rows it skips; the rows it cannot write are
   * `refused` (the commit then rolls back and names them).
   */
  write: (
    tx: Transaction,
    batch: Array<{ stored: StoredRow; action: 'create' | 'merge' | 'skip' }>,
  ) => Promise<{ committed: CommittedRow[]; refused: ImportRowError[]; skipped: number }>;
  /** After the last batch, on the commit's transaction. */
  finish?: (tx: Transaction) => Promise<void>;
  /**
   * Removes what the commit created and restores what it merged; returns why it cannot (the records
   * changed or used since, named) without writing anything, else undefined.
   */
  undo: (tx: Transaction, written: WrittenRow[]) => Promise<string | undefined>;
};

/** Records an undo refusal names in full; the rest are counted. */
const NAMED_IN_DETAIL = 10;

/** The first ten of `names` joined, and how many more: "a, b and 3 more". */
export function namedFew(names: string[]): string {
  const more = names.length > NAMED_IN_DETAIL ? ` and ${names.length - NAMED_IN_DETAIL} more` : '';
  return `${names.slice(0, NAMED_IN_DETAIL).join(', ')}${more}`;
}

/** A row's mapped cells as written (`values`), as read by their field's type (`typed`), and the cells that cannot be read. */
export type ReadCells = {
  values: Record<string, string>;
  typed: Record<string, string | number | boolean>;
  errors: Array<{ field: string; message: string }>;
};

/**
 * Reads the mapped, non-empty cells of a row by their field's type (see `ImportField`): text, a
 * reference name or tags as written; a number with the import's decimal separator; a whole number; a
 * yes/no; a date as `YYYY-MM-DD` from the import's date format. Each unreadable cell is an error naming
 * its field.
 */
export function readCells(
  fields: readonly ImportField[],
  cells: readonly string[],
  mapping: ImportMapping,
  options: ImportOptions,
): ReadCells {
  const read: ReadCells = { values: {}, typed: {}, errors: [] };
  for (const { field, type } of fields) {
    const column = mapping[field];
    if (column === null || column === undefined) continue;
    const cell = (cells[column] ?? '').trim();
    read.values[field] = cell;
    if (cell === '') continue;
    if (type === 'number' || type === 'integer') {
      const value = readNumber(cell, options.decimalSeparator);
      if (Number.isNaN(value) || (type === 'integer' && !Number.isInteger(value))) {
        read.errors.push({
          field,
          message: type === 'integer' ? 'Write a whole number.' : 'Write a number.',
        });
      } else read.typed[field] = value;
    } else if (type === 'boolean') {
      const value = readBoolean(cell);
      if (value === undefined) read.errors.push({ field, message: 'Write yes or no (oui or non).' });
      else read.typed[field] = value;
    } else if (type === 'date') {
      const value = readDate(cell, options.dateFormat);
      if (value === undefined)
        read.errors.push({ field, message: `Dates are written ${options.dateFormat}.` });
      else read.typed[field] = value;
    } else read.typed[field] = cell;
  }
  return read;
}

/** Adds a schema's issues to `errors`, each under its field's name, one per field. */
export function addIssues(
  errors: Array<{ field: string; message: string }>,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  fieldOf: (path: string) => string = (path) => path,
) {
  for (const issue of issues) {
    const field = fieldOf(String(issue.path[0] ?? ''));
    if (!errors.some((error) => error.field === field)) errors.push({ field, message: issue.message });
  }
}

/** The rows of a batch to write, and how many it skips. */
export function splitSkipped<T extends { action: 'create' | 'merge' | 'skip' }>(batch: T[]) {
  const toWrite = batch.filter(
    (entry): entry is T & { action: 'create' | 'merge' } => entry.action !== 'skip',
  );
  return { toWrite, skipped: batch.length - toWrite.length };
}
