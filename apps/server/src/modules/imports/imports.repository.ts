import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { anyOf, type Executor, queryRows } from '../../db/client.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import {
  categories,
  countries,
  currencies,
  paymentMethods,
  subscriptionTypes,
  tags,
} from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import { type ImportRow, importRows, imports } from './imports.table.ts';
import type { ImportList, ReferenceLookup } from './subscriber-import.ts';

/** The table of each list an import resolves names in. */
export const IMPORT_LIST_TABLES = {
  country: countries,
  paymentMethod: paymentMethods,
  category: categories,
  subscriptionType: subscriptionTypes,
  currency: currencies,
  tags,
} as const;

/** A row's dry-run finding, as stored. */
export type CheckedRow = {
  rowNumber: number;
  status: 'valid' | 'invalid' | 'duplicate';
  errors: Array<{ field: string; message: string }>;
  matchId: number | null;
  matchReasons: string[];
};

/** What the commit did to a row, as stored for undo. */
export type CommittedRow = {
  rowNumber: number;
  action: 'created' | 'merged';
  recordId: number;
  recordVersion: number;
  before: Record<string, unknown> | null;
};

/** `select … from jsonb_to_recordset($json) as x(columns)`: many rows in one parameter, on PGlite and PostgreSQL alike. */
const recordset = (records: object[], columns: SQL) =>
  sql`jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as x(${columns})`;

/** Imports past keeping ({@link IMPORT_KEPT_DAYS}): not being committed, their last step before `cutoff`. */
const expiring = (cutoff: Date) =>
  and(
    inArray(imports.status, ['uploaded', 'checked', 'failed', 'committed', 'undone']),
    sql`coalesce(${imports.undoneAt}, ${imports.committedAt}, ${imports.createdAt}) < ${cutoff}`,
  );

/** Imports and their rows (contract `imports`). */
export function createImportsRepository() {
  return {
    insert: async (db: Executor, values: typeof imports.$inferInsert): Promise<ImportRow> => {
      const [row] = await db.insert(imports).values(values).returning();
      if (!row) throw new Error('insert into imports returned no row');
      return row;
    },

    /** Stores data rows `firstRowNumber`, `firstRowNumber + 1`, … of an import. */
    insertRows: async (db: Executor, importId: number, firstRowNumber: number, rows: string[][]) => {
      await db.execute(sql`
        insert into import_rows (import_id, row_number, cells)
        select ${importId}, ${firstRowNumber - 1} + t.ordinal::int, t.cells
        from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as t(cells, ordinal)`);
    },

    find: async (db: Executor, id: number, options: { lock?: boolean } = {}) => {
      const query = db.select().from(imports).where(eq(imports.id, id));
      const [row] = await (options.lock ? query.for('update') : query);
      return row;
    },

    /** The newest imports first. */
    list: (db: Executor, limit: number) =>
      db.select().from(imports).orderBy(desc(imports.createdAt), desc(imports.id)).limit(limit),

    update: async (db: Executor, id: number, values: Partial<typeof imports.$inferInsert>) => {
      const [row] = await db.update(imports).set(values).where(eq(imports.id, id)).returning();
      return row;
    },

    /** Whether an import is past keeping: not being committed, its last step before `cutoff`. */
    hasExpiring: async (db: Executor, cutoff: Date) =>
      (await db.select({ id: imports.id }).from(imports).where(expiring(cutoff)).limit(1)).length > 0,

    /**
     * Expires up to `limit` imports past keeping: deletes their rows (the cells of the file, and what
     * undo would need) and the sample values of their columns and their row errors, and marks them
     * `expired`. Imports another transaction holds are left for the next run. Resolves with their ids.
     */
    expire: async (db: Executor, cutoff: Date, limit: number) => {
      const due = await db
        .select({ id: imports.id })
        .from(imports)
        .where(expiring(cutoff))
        .orderBy(asc(imports.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      const ids = due.map((row) => row.id);
      if (ids.length === 0) return ids;
      await db.delete(importRows).where(inArray(importRows.importId, ids));
      await db.execute(sql`
        update imports set status = 'expired', errors = '[]'::jsonb,
          columns = (select coalesce(jsonb_agg(jsonb_set(t.c, '{samples}', '[]'::jsonb) order by t.n), '[]'::jsonb)
                     from jsonb_array_elements(imports.columns) with ordinality as t(c, n))
        where id = ${anyOf(ids, 'int')}`);
      return ids;
    },

    /** Moves the import from one of `from` to `to`; undefined when it was in none of them (someone was first). */
    transition: async (
      db: Executor,
      id: number,
      from: ImportRow['status'][],
      values: Partial<typeof imports.$inferInsert> & { status: ImportRow['status'] },
    ) => {
      const [row] = await db
        .update(imports)
        .set(values)
        .where(and(eq(imports.id, id), inArray(imports.status, from)))
        .returning();
      return row;
    },

    /** Up to `limit` rows after `afterRowNumber`, in file order. */
    rowsAfter: (db: Executor, importId: number, afterRowNumber: number, limit: number) =>
      db
        .select()
        .from(importRows)
        .where(and(eq(importRows.importId, importId), sql`${importRows.rowNumber} > ${afterRowNumber}`))
        .orderBy(asc(importRows.rowNumber))
        .limit(limit),

    /** One page of checked rows, optionally of one status, and how many there are. */
    checkedPage: async (
      db: Executor,
      importId: number,
      { status, offset, limit }: { status: CheckedRow['status'] | ''; offset: number; limit: number },
    ) => {
      const where = and(
        eq(importRows.importId, importId),
        status ? eq(importRows.status, status) : undefined,
      );
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(importRows)
          .where(where)
          .orderBy(asc(importRows.rowNumber))
          .offset(offset)
          .limit(limit),
        db.select({ n: sql<number>`count(*)::int` }).from(importRows).where(where),
      ]);
      return { rows, count: counted?.n ?? 0 };
    },

    saveChecks: async (db: Executor, importId: number, checked: CheckedRow[]) => {
      if (checked.length === 0) return;
      await db.execute(sql`
        update import_rows r
        set status = x.status, errors = x.errors, match_id = x.match_id, match_reasons = x.match_reasons
        from ${recordset(
          checked.map((row) => ({
            row_number: row.rowNumber,
            status: row.status,
            errors: row.errors,
            match_id: row.matchId,
            match_reasons: row.matchReasons,
          })),
          sql`row_number int, status text, errors jsonb, match_id int, match_reasons jsonb`,
        )}
        where r.import_id = ${importId} and r.row_number = x.row_number`);
    },

    /** Forgets earlier decisions and records `decisions` (row → create, merge or skip). */
    saveDecisions: async (
      db: Executor,
      importId: number,
      decisions: Array<{ row: number; action: string }>,
    ) => {
      await db.update(importRows).set({ decision: null }).where(eq(importRows.importId, importId));
      for (let start = 0; start < decisions.length; start += 10_000) {
        const batch = decisions.slice(start, start + 10_000);
        await db.execute(sql`
          update import_rows r set decision = x.action
          from ${recordset(batch, sql`row int, action text`)}
          where r.import_id = ${importId} and r.row_number = x.row`);
      }
    },

    saveCommitted: async (db: Executor, importId: number, committed: CommittedRow[]) => {
      if (committed.length === 0) return;
      await db.execute(sql`
        update import_rows r
        set action = x.action, record_id = x.record_id, record_version = x.record_version, before = x.before
        from ${recordset(
          committed.map((row) => ({
            row_number: row.rowNumber,
            action: row.action,
            record_id: row.recordId,
            record_version: row.recordVersion,
            before: row.before,
          })),
          sql`row_number int, action text, record_id int, record_version int, before jsonb`,
        )}
        where r.import_id = ${importId} and r.row_number = x.row_number`);
    },

    /** The rows a commit wrote, in file order: what undo reverts. */
    committedRows: (db: Executor, importId: number) =>
      db
        .select({
          rowNumber: importRows.rowNumber,
          action: importRows.action,
          recordId: importRows.recordId,
          recordVersion: importRows.recordVersion,
          before: importRows.before,
        })
        .from(importRows)
        .where(and(eq(importRows.importId, importId), sql`${importRows.action} is not null`))
        .orderBy(asc(importRows.rowNumber)),

    clearCommitted: (db: Executor, importId: number) =>
      db
        .update(importRows)
        .set({ action: null, recordId: null, recordVersion: null, before: null })
        .where(eq(importRows.importId, importId)),

    /**
     * Every item of the lists by folded name (the import resolves names accent- and case-insensitively);
     * currencies by their symbol too.
     */
    loadLookup: async (db: Executor): Promise<ReferenceLookup> => {
      const lookup = {} as ReferenceLookup;
      for (const [list, table] of Object.entries(IMPORT_LIST_TABLES) as Array<
        [ImportList, (typeof IMPORT_LIST_TABLES)[ImportList]]
      >) {
        const rows = await db.select({ id: table.id, name: table.name }).from(table);
        lookup[list] = new Map(rows.map((row) => [foldForSearch(row.name), row.id]));
      }
      // A currency is also named by its symbol (the donation export writes "€", "CHF").
      for (const currency of await db
        .select({ id: currencies.id, symbol: currencies.symbol })
        .from(currencies)) {
        const key = foldForSearch(currency.symbol);
        if (key !== '' && !lookup.currency.has(key)) lookup.currency.set(key, currency.id);
      }
      return lookup;
    },

    /** Adds the items named to a list, skipping those it has (names are unique there, case-insensitive). */
    insertListItems: async (db: Executor, list: Exclude<ImportList, 'currency'>, names: string[]) => {
      if (names.length === 0) return;
      const table = IMPORT_LIST_TABLES[list];
      await db
        .insert(table)
        .values(names.map((name) => ({ name })))
        .onConflictDoNothing();
    },

    /**
     * Visible subscribers who share an email (any case), an IBAN, or a folded first name, last name and
     * postcode with the given candidates: the duplicates an import warns of.
     */
    findDuplicates: async (
      db: Executor,
      candidates: {
        emails: string[];
        ibans: string[];
        names: Array<{ last: string; first: string; postcode: string }>;
      },
    ) => {
      const found: Array<{
        id: number;
        email: string;
        iban: string;
        last: string;
        first: string;
        postcode: string;
      }> = [];
      // `= any(array(…))` rather than `in (select …)`: PostgreSQL then reads the email and IBAN indexes
      // instead of hashing the list and scanning the register.
      const columns = sql`${subscribers.id} as id, lower(${subscribers.email}) as email, ${subscribers.iban} as iban,
        ${subscribers.searchLastName} as last, ${subscribers.searchFirstName} as first, ${subscribers.searchPostcode} as postcode`;
      if (candidates.emails.length > 0) {
        found.push(
          ...(await queryRows<(typeof found)[number]>(
            db,
            sql`select ${columns} from ${subscribers}
                where lower(${subscribers.email}) = ${anyOf(candidates.emails, 'text')}
                  and ${subscribers.email} <> '' and not ${subscribers.hidden}`,
          )),
        );
      }
      if (candidates.ibans.length > 0) {
        found.push(
          ...(await queryRows<(typeof found)[number]>(
            db,
            sql`select ${columns} from ${subscribers}
                where ${subscribers.iban} = ${anyOf(candidates.ibans, 'text')}
                  and ${subscribers.iban} <> '' and not ${subscribers.hidden}`,
          )),
        );
      }
      if (candidates.names.length > 0) {
        found.push(
          ...(await queryRows<(typeof found)[number]>(
            db,
            sql`select ${columns} from ${subscribers}
                join jsonb_to_recordset(${JSON.stringify(candidates.names)}::jsonb) as x(last text, first text, postcode text)
                  on ${subscribers.searchLastName} = x.last collate "C" and ${subscribers.searchFirstName} = x.first collate "C"
                  and ${subscribers.searchPostcode} = x.postcode collate "C"
                where not ${subscribers.hidden}`,
          )),
        );
      }
      return found;
    },
  };
}

export type ImportsRepository = ReturnType<typeof createImportsRepository>;
