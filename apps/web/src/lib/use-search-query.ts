import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import {
  parseSearchQuery,
  type SearchQueryInput,
  type SearchQuerySchema,
  searchQueryString,
} from './search-query.ts';

/** What {@link useSearchQuery} gives back. */
export type SearchQueryState<S extends SearchQuerySchema> = {
  /** The screen's URL search parameters parsed with the schema; null when they cannot be read. */
  query: z.output<S> | null;
  /** Whether the URL carries any parameter the schema knows (a search was run or bookmarked). */
  present: boolean;
  /** Writes `value` into the URL under the schema's names (replacing the entry: no history step). */
  setQuery: (value: SearchQueryInput<S>) => void;
  /** Removes the schema's parameters from the URL (other parameters, e.g. `subid`, stay). */
  clearQuery: () => void;
};

/**
 * Binds the screen's URL search parameters to a contract query schema (part 2 §7 search queries, the
 * same names the API takes): parsed with the schema on read, serialised under its names on write, so
 * a search can be reloaded or shared and the screen never builds a query string by hand.
 *
 * @param schema e.g. `subscriberSearchQuerySchema.omit({ listfrom: true, listlength: true })`.
 */
export function useSearchQuery<S extends SearchQuerySchema>(schema: S): SearchQueryState<S> {
  const [params, setParams] = useSearchParams();
  const keys = useMemo(() => Object.keys(schema.shape), [schema]);
  const query = useMemo(() => parseSearchQuery(schema, params), [schema, params]);
  const present = keys.some((key) => params.has(key));

  const setQuery = useCallback(
    (value: SearchQueryInput<S>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const key of keys) next.delete(key);
          for (const [key, field] of new URLSearchParams(searchQueryString(schema, value)))
            next.set(key, field);
          return next;
        },
        { replace: true },
      );
    },
    [schema, keys, setParams],
  );

  const clearQuery = useCallback(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of keys) next.delete(key);
        return next;
      },
      { replace: true },
    );
  }, [keys, setParams]);

  return { query, present, setQuery, clearQuery };
}
