import type { z } from 'zod';

/**
 * A search query as the contract's query schemas describe it (part 2 §7: every search and export of
 * Subscribers, Donations, Sales and Audit sends its filters as query parameters; §5 empty means "no
 * filter"). One way in and one way out, so no screen builds a query string by hand.
 */

/** A query schema of the contract: a zod object of query parameters, e.g. `subscriberSearchQuerySchema`. */
export type SearchQuerySchema = z.ZodObject;

/** The values a query may be written from: the schema's input, every parameter optional. */
export type SearchQueryInput<S extends SearchQuerySchema> = Partial<z.input<S>>;

/**
 * The query string of `value` under `schema`'s names, in the schema's order, without the `?`: each
 * given parameter is written as text (`''` kept, so an empty filter is sent empty as part 2 §5 wants),
 * undefined and null ones are left out, booleans as `true` / `false`.
 */
export function searchQueryString<S extends SearchQuerySchema>(
  schema: S,
  value: SearchQueryInput<S>,
): string {
  const params = new URLSearchParams();
  const values = value as Record<string, unknown>;
  for (const key of Object.keys(schema.shape)) {
    const field = values[key];
    if (field === undefined || field === null) continue;
    params.set(key, String(field));
  }
  return params.toString();
}

/**
 * Reads URL search parameters with `schema`: the first value of each parameter the schema knows; a
 * parameter the schema refuses (a mistyped date in a bookmarked address) is dropped rather than
 * failing the whole query, and missing ones take the schema's defaults.
 */
export function parseSearchQuery<S extends SearchQuerySchema>(
  schema: S,
  params: URLSearchParams,
): z.output<S> | null {
  const shape = schema.shape as Record<string, z.ZodType>;
  const raw: Record<string, string> = {};
  for (const key of Object.keys(shape)) {
    const field = params.get(key);
    if (field !== null) raw[key] = field;
  }
  const whole = schema.safeParse(raw);
  if (whole.success) return whole.data;
  const kept: Record<string, string> = {};
  for (const [key, field] of Object.entries(raw)) {
    if (shape[key]?.safeParse(field).success) kept[key] = field;
  }
  const partial = schema.safeParse(kept);
  return partial.success ? partial.data : null;
}
