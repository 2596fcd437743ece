import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Makes a text cell safe for spreadsheets: one starting with `=`, `+`, `-`, `@`, tab or carriage
 * return could run as a formula, so it gets a leading apostrophe (OWASP CSV injection). Used by the
 * CSV and the XLSX exports alike; values that are not strings are returned unchanged.
 * {@link neutraliseFormulaSql} is the same rule in SQL: change both together.
 */
export function neutraliseFormula<T>(value: T): T | string {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * {@link neutraliseFormula} written in SQL, for the cells PostgreSQL writes itself (the sales CSV
 * exports through `COPY … TO STDOUT`, for the speed goal of CSV within 3× of COPY; part 2 §7 Sales
 * exports). `value` is any expression, taken as its text: the result is `text`, with a leading
 * apostrophe when it starts with `=`, `+`, `-`, `@`, tab or carriage return; NULL stays NULL. It must
 * match neutraliseFormula character for character: the export written by csv-stringify (PGlite) and
 * the one written by COPY (PostgreSQL) are the same bytes, which sales-export.routes.test.ts checks
 * on both engines.
 */
export function neutraliseFormulaSql(value: SQLWrapper): SQL {
  const text = sql`(${value})::text`;
  // ascii() is the code point of the first character (0 for ''): = + - @ tab CR.
  return sql`case when ascii(${text}) in (61, 43, 45, 64, 9, 13) then '''' || ${text} else ${text} end`;
}
