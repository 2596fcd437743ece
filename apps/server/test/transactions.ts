import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { type DatabaseHandle, queryRows, type Transaction } from '../src/db/client.ts';

/**
 * Runs `first` in a transaction, then `second` in another while the first is still open, and lets the
 * first commit only once the second waits for one of its locks (on PostgreSQL; PGlite runs one
 * transaction at a time, so there the second simply follows). For the races of two writers.
 */
export async function overlappingTransactions(
  database: DatabaseHandle,
  first: (tx: Transaction) => Promise<unknown>,
  second: (tx: Transaction) => Promise<unknown>,
): Promise<void> {
  const { db } = database;
  let releaseFirst: () => void = () => {};
  const firstMayCommit = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  let firstWrote: () => void = () => {};
  const firstHasWritten = new Promise<void>((resolve) => {
    firstWrote = resolve;
  });
  const firstDone = db.transaction(async (tx) => {
    await first(tx);
    firstWrote();
    await firstMayCommit;
  });
  await firstHasWritten;
  const secondDone = db.transaction(async (tx) => {
    await second(tx);
  });
  try {
    if (database.kind === 'postgres') {
      await expect
        .poll(async () => {
          const [row] = await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from pg_locks where not granted`,
          );
          return row?.n;
        })
        .toBeGreaterThan(0);
    }
  } finally {
    releaseFirst();
  }
  await Promise.all([firstDone, secondDone]);
}
