import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Executor, preparedPerConnection } from './client.ts';

/**
 * Allocates the next number of a gapless document series (sale references, tax receipts, credit
 * notes), kept in a one-row counter table (`id` = 1) whose `last` column holds the last number given.
 *
 * The upsert takes the row lock, so concurrent callers queue and each gets the next number; the
 * caller's transaction holds that lock until it commits, and a rollback gives the number back:
 * no gap and no duplicate. Call it inside the transaction that writes the document.
 * @returns the allocated number (1 for the first document of the series).
 */
export async function allocateNumber(
  db: Executor,
  counter: PgTable & { id: PgColumn },
  last: PgColumn,
): Promise<number> {
  const [row] = await allocationStatement(counter, last)(db).execute();
  if (!row) throw new Error(`${last.name} counter gave no number`);
  return Number(row.allocated);
}

type AllocationStatement = (db: Executor) => { execute: () => Promise<Array<{ allocated: unknown }>> };

/** The upsert of each counter column, prepared (see preparedPerConnection). */
const allocationStatements = new Map<PgColumn, AllocationStatement>();

function allocationStatement(counter: PgTable & { id: PgColumn }, last: PgColumn): AllocationStatement {
  const known = allocationStatements.get(last);
  if (known) return known;
  const columns: Record<string, PgColumn> = getTableColumns(counter);
  const key = Object.keys(columns).find((name) => columns[name] === last);
  if (!key) throw new Error(`${last.name} is not a column of this counter`);
  const statement = preparedPerConnection((db) =>
    db
      .insert(counter)
      .values({ id: 1, [key]: 1 } as never)
      .onConflictDoUpdate({ target: counter.id, set: { [key]: sql`${last} + 1` } as never })
      .returning({ allocated: last })
      .prepare(`allocate_${getTableName(counter)}_${last.name}`),
  );
  allocationStatements.set(last, statement);
  return statement;
}
