import { z } from 'zod';

/**
 * Shared wire shapes (docs/spec/design.md §Contract decisions the spec leaves open).
 */

/** The largest id, and the largest whole number a field stored as PostgreSQL `integer` can hold. */
export const MAX_ID = 2_147_483_647;

/** The page of a list query: 1-based `listfrom`, `listlength` from 1 to 500 (default 50). */
export const pageQueryShape = {
  listfrom: z.coerce
    .number({ message: 'listfrom is a position from 1.' })
    .int({ message: 'listfrom is a position from 1.' })
    .min(1, { message: 'listfrom is a position from 1.' })
    .max(MAX_ID, { message: 'listfrom is too large.' })
    .default(1),
  listlength: z.coerce
    .number({ message: 'listlength is a number from 1 to 500.' })
    .int({ message: 'listlength is a number from 1 to 500.' })
    .min(1, { message: 'listlength is a number from 1 to 500.' })
    .max(500, { message: 'listlength is a number from 1 to 500.' })
    .default(50),
};
/** The smallest whole number of a PostgreSQL `integer`. */
export const MIN_INTEGER = -2_147_483_648;

/** True when `value` holds no NUL character: PostgreSQL text cannot store one, nor compare with one. */
export function hasNoNulCharacter(value: string): boolean {
  return !value.includes('\u0000');
}

export const NUL_CHARACTER_MESSAGE = 'The text cannot contain a NUL character.';

/**
 * A string that PostgreSQL can store and compare: the NUL character is refused (docs/spec/design.md
 * §Contract decisions the spec leaves open). Every text of a request starts here; chain `.trim()`,
 * `.min()`, `.max()` as with `z.string()`.
 */
export function plainString(params?: { message?: string }) {
  return z.string(params).refine(hasNoNulCharacter, { message: NUL_CHARACTER_MESSAGE });
}

/** A positive integer id in a path, e.g. `/api/users/{id}`; at most {@link MAX_ID}. */
export const idParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(MAX_ID, { message: 'No record has this id.' }),
});
export type IdParams = z.infer<typeof idParamsSchema>;

/** One field error inside a problem: `path` is dotted (`email`, `lines.0.quantity`). */
export const fieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
});

/**
 * `application/problem+json` body of every error answer (RFC 9457).
 * `code` is a dotted lowercase machine code such as `users.email_taken`.
 */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

/** Email pattern of the spec (part 1 §5): text, an at-sign, text with no spaces, at least 4 characters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/** Strict email check used by the server where an address must be deliverable. */
export const deliverableEmailSchema = z.email({ message: 'Valid email is required' });

/** True when `value` has at most two decimals (money on the wire: docs/decisions/005). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

/**
 * A non-negative amount of money in units (euros or francs), at most 2 decimals, at most 9 999 999 999.99.
 * `message` is shown for a missing or non-numeric value.
 */
export function moneySchema(message: string) {
  return z
    .number({ message })
    .min(0, { message: 'The amount cannot be negative.' })
    .max(9_999_999_999.99, { message: 'The amount is too large.' })
    .refine(hasAtMostTwoDecimals, { message: 'The amount can have at most 2 decimals.' });
}

/** A yes/no query parameter: `true`, `1` (yes) or `false`, `0`, empty, absent (no). */
export const queryFlagSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''], { message: 'Use true or false.' })])
  .optional()
  .transform((value) => value === true || value === 'true' || value === '1');

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date `YYYY-MM-DD` that exists (2024-02-30 does not, nor does year 0, which PostgreSQL refuses). */
export function isIsoDate(value: string): boolean {
  if (!DATE_PATTERN.test(value) || value < '0001-01-01') return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * The two CSV dialects of every CSV export (`?dialect=`): `rfc4180` (the default: `,` separator, decimal
 * point) and `excel-fr` (what Excel opens as columns in a French locale: `;` separator, decimal comma).
 * Both are UTF-8 with a byte order mark. Any other value is a 400 naming `dialect`.
 */
export const CSV_DIALECTS = ['rfc4180', 'excel-fr'] as const;
export type CsvDialect = (typeof CSV_DIALECTS)[number];

export const csvDialectSchema = z
  .enum(CSV_DIALECTS, { message: 'The dialect is rfc4180 or excel-fr.' })
  .default('rfc4180');

/** Query of a CSV export that takes no filter (`GET /api/products/export?dialect=`). */
export const csvExportQuerySchema = z.object({ dialect: csvDialectSchema });
export type CsvExportQuery = z.infer<typeof csvExportQuerySchema>;
