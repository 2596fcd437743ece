import { DrizzleQueryError } from 'drizzle-orm/errors';

/** The PostgreSQL error code of `error` or of an error it wraps (Drizzle wraps driver errors). */
export function postgresErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
/** The statement ran past `statement_timeout` (or was cancelled): PostgreSQL rolled it back. */
export const QUERY_CANCELED = '57014';

/**
 * PostgreSQL codes for a value the database cannot take: 22001 text too long for its column, 22003 a
 * number out of range (an id past 2^31 - 1), 22007 and 22008 a malformed or overflowing date, 22021 a
 * NUL character or invalid UTF-8 in text, 22P02 text that is not a valid number or boolean, 22P05 an
 * untranslatable character, 2201W and 2201X a bad LIMIT or OFFSET, 54000 a value too large for an index.
 */
const INVALID_VALUE_CODES = new Set([
  '22001',
  '22003',
  '22007',
  '22008',
  '22021',
  '22P02',
  '22P05',
  '2201W',
  '2201X',
  '54000',
]);

/**
 * The PostgreSQL code when `error` is the database refusing a value of the request (see
 * {@link INVALID_VALUE_CODES}): bad input that got past the contract, answered 400 rather than 500.
 * `undefined` for any other error.
 */
export function invalidValueCode(error: unknown): string | undefined {
  const code = postgresErrorCode(error);
  return code !== undefined && INVALID_VALUE_CODES.has(code) ? code : undefined;
}

// Socket-level failures: nothing answers, or the connection died under the query.
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// node-postgres says these in words, without a code.
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|connection timeout/i;

/**
 * True when `error` (or an error it wraps, as Drizzle's "Failed query" does) says the database
 * cannot be reached or dropped the connection, rather than refusing the statement: class 08
 * (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now, e.g. during a
 * PostgreSQL restart), 53300 (too many connections), socket errors such as ECONNREFUSED or
 * ECONNRESET, and node-postgres's "Connection terminated" and connect timeouts. Such a failure is
 * temporary: the HTTP layer answers 503 with Retry-After (docs/decisions/008).
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  return databaseUnavailableReason(error) !== undefined;
}

/**
 * The code or driver message that makes `error` a {@link isDatabaseUnavailableError}, e.g.
 * `ECONNREFUSED`, `57P01` or `Connection terminated unexpectedly`; safe to log (unlike Drizzle's
 * own message, which quotes the query's parameters). `undefined` for any other error.
 */
export function databaseUnavailableReason(error: unknown): string | undefined {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 10; seen += 1) {
    const current = pending.shift();
    if (!current || typeof current !== 'object') continue;
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string') {
      if (
        CONNECTION_ERRNOS.has(code) ||
        code.startsWith('08') ||
        /^57P0[123]$/.test(code) ||
        code === '53300'
      )
        return code;
    }
    // Drizzle's wrapper is not read: its message quotes the query's values, which may say anything.
    if (
      !(current instanceof DrizzleQueryError) &&
      typeof message === 'string' &&
      CONNECTION_MESSAGES.test(message)
    )
      return message;
    pending.push(cause);
    // A connection attempt to several addresses fails with an AggregateError of each attempt's error.
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return undefined;
}
