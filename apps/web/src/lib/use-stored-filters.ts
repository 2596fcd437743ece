import { useCallback, useRef, useState } from 'react';

/**
 * Search filters kept in the browser's local storage (part 2 §2.1: "Filters are saved to browser local
 * storage and restored when the screen appears. Clear empties the stored values and all fields."; the
 * donations and sales screens use the same mechanism).
 */

/** What {@link useStoredFilters} gives back. */
export type StoredFilters<T extends object> = {
  /** The last saved filters, restored from local storage on mount; `empty` when nothing is stored. */
  filters: T;
  /** Stores `values` under the key and makes them the current `filters`. */
  save: (values: T) => void;
  /** Removes the stored values; `filters` become `empty` again. */
  clear: () => void;
};

/**
 * Reads the filters stored under `key`, field by field over `empty`: fields unknown to `empty` are
 * dropped, fields missing from storage (or stored with another type) keep their empty value, so a
 * change of the filter set between releases never breaks the screen.
 */
export function readStoredFilters<T extends object>(key: string, empty: T): T {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(key);
  } catch {
    return empty;
  }
  if (!raw) return empty;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return empty;
  }
  if (typeof parsed !== 'object' || parsed === null) return empty;
  const stored = parsed as Record<string, unknown>;
  const result: Record<string, unknown> = { ...(empty as Record<string, unknown>) };
  for (const [field, emptyValue] of Object.entries(empty as Record<string, unknown>)) {
    const value = stored[field];
    if (value === undefined) continue;
    const sameType = emptyValue === null || value === null ? true : typeof value === typeof emptyValue;
    if (sameType) result[field] = value;
  }
  return result as T;
}

/** Writes `values` under `key` (a full or blocked storage is ignored: filters are a convenience). */
export function writeStoredFilters<T extends object>(key: string, values: T): void {
  try {
    localStorage.setItem(key, JSON.stringify(values));
  } catch {
    // Storage full or disabled: the screen still works, it just will not remember.
  }
}

/**
 * Filters of a search screen kept in local storage under `key`.
 *
 * @param key   the storage key, e.g. `subscribers.search-filters` (one per screen).
 * @param empty the filters with every field empty; also the shape used to read stored values back.
 *
 * Usage: give `filters` to the search form as its initial values, call `save(values)` when a search
 * runs, `clear()` when Clear is pressed.
 */
export function useStoredFilters<T extends object>(key: string, empty: T): StoredFilters<T> {
  const [filters, setFilters] = useState<T>(() => readStoredFilters(key, empty));
  // `empty` is usually a constant, but a literal written in the caller's render must not recreate `clear`.
  const emptyRef = useRef(empty);
  emptyRef.current = empty;

  const save = useCallback(
    (values: T) => {
      writeStoredFilters(key, values);
      setFilters(values);
    },
    [key],
  );

  const clear = useCallback(() => {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing stored can be removed from a blocked storage.
    }
    setFilters(emptyRef.current);
  }, [key]);

  return { filters, save, clear };
}
