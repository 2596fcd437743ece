import { CSV_DIALECTS, type CsvDialect } from '@back-office/contract/common';
import { useCallback, useSyncExternalStore } from 'react';
import { getSessionUser, useSessionUser } from './session.ts';

/**
 * The CSV dialect of the CSV exports (part 2 §7 The calls it makes: `?dialect=`), remembered per user in
 * this browser's local storage under `exports.csv-dialect.{userId}`: a display preference, so no server
 * round trip. Staff who never chose get the server's default, `rfc4180`, as before the choice existed.
 */
export const DEFAULT_CSV_DIALECT: CsvDialect = 'rfc4180';

/** Storage key of the dialect chosen by the user `userId`. */
export function csvDialectStorageKey(userId: number): string {
  return `exports.csv-dialect.${userId}`;
}

/** The dialect stored for `userId` (or the signed-in user), else {@link DEFAULT_CSV_DIALECT}. */
export function readCsvDialect(userId: number | undefined = getSessionUser()?.id): CsvDialect {
  if (userId === undefined) return DEFAULT_CSV_DIALECT;
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(csvDialectStorageKey(userId));
  } catch {
    return DEFAULT_CSV_DIALECT;
  }
  return (CSV_DIALECTS as readonly string[]).includes(stored ?? '')
    ? (stored as CsvDialect)
    : DEFAULT_CSV_DIALECT;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** Stores `dialect` as the choice of `userId` (a blocked storage is ignored) and tells every screen. */
export function saveCsvDialect(userId: number, dialect: CsvDialect): void {
  try {
    localStorage.setItem(csvDialectStorageKey(userId), dialect);
  } catch {
    // A preference only.
  }
  for (const listener of listeners) listener();
}

/**
 * React hook: the signed-in user's dialect and a setter that stores it; every component using it (the
 * Export menu, the export it starts) sees the same value.
 */
export function useCsvDialect(): [CsvDialect, (dialect: CsvDialect) => void] {
  const userId = useSessionUser()?.id;
  const dialect = useSyncExternalStore(subscribe, () => readCsvDialect(userId));
  const setDialect = useCallback(
    (next: CsvDialect) => {
      if (userId !== undefined) saveCsvDialect(userId, next);
    },
    [userId],
  );
  return [dialect, setDialect];
}
