import { finished, pipeline, type Readable, Transform } from 'node:stream';
import type { CsvDialect } from '@back-office/contract/common';
import { Column, is, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { CSV_DELIMITERS, type CsvColumn, UTF8_BOM } from '../lib/csv.ts';
import { neutraliseFormulaSql } from '../lib/spreadsheet/formula-safety.ts';
import { EXPORT_STATEMENT_TIMEOUT, type Executor } from './client.ts';

/**
 * Renders a query with its parameters written in as literals, since COPY takes no parameters.
 * Strings are quoted by node-postgres's escapeLiteral, safe whatever `standard_conforming_strings`
 * says (Drizzle's own quoting leaves backslashes alone). Column names in snake_case, as the Drizzle
 * instances of client.ts name them.
 */
class InlineParamsDialect extends PgDialect {
  override escapeString(value: string): string {
    return pg.escapeLiteral(value);
  }
}

const inlineDialect = new InlineParamsDialect({ casing: 'snake_case' });

/** Column types node-postgres reads as JS numbers, which csvStream writes as they are (no formula check). */
const NUMBER_COLUMN_TYPES = new Set(['PgInteger', 'PgSmallInt', 'PgSerial', 'PgSmallSerial']);

/**
 * A cell for {@link copyCsvStream} that PostgreSQL's CSV writes as csvStream (lib/csv.ts) writes the same
 * value read through node-postgres: an integer column as it is; anything else (text, numeric, to_char…) as
 * text through neutraliseFormulaSql, '' made NULL because COPY quotes an empty string (`""`) where
 * csv-stringify writes nothing. Quoting (comma, quote, CR, LF; quotes doubled) and the `\n` record
 * delimiter are already the same in both. With `decimalComma` (a `decimal` column in the `excel-fr`
 * dialect) the `.` becomes `,`, as csvStream's decimalCell. `reference` is where the cell reads the
 * value (by default `value` itself; the name it has in the query below, see {@link csvCopyQuery}): the
 * cell is chosen from `value`'s column type. For the speed goal of CSV within 3× of COPY (part 2 §7
 * Sales exports).
 */
export function csvCellSql(
  value: SQLWrapper,
  decimalComma = false,
  reference: SQLWrapper = value,
): SQLWrapper {
  if (is(value, Column) && NUMBER_COLUMN_TYPES.has(value.columnType)) return reference;
  const asText = (expression: SQLWrapper) =>
    decimalComma ? sql`replace((${expression})::text, '.', ',')` : sql`(${expression})::text`;
  // Each expression is written once per row: the generic cell below converts its value two or three
  // times (a tenth of a million-row export went to amounts turned into text twice).
  if (is(value, Column) && value.columnType === 'PgNumeric') {
    // A number's text starts with a digit, or with '-' when negative: the formula check reads the sign.
    return sql`case when ${reference} < 0 then '''' || ${asText(reference)} else ${asText(reference)} end`;
  }
  if (formulaSafeValues.has(value)) return sql`nullif(${asText(reference)}, '')`;
  const text = decimalComma ? asText(reference) : reference;
  return sql`nullif(${neutraliseFormulaSql(text)}, '')`;
}

const formulaSafeValues = new WeakSet<SQLWrapper>();

/**
 * `value`, marked as text that never starts with a formula character (`=`, `+`, `-`, `@`, tab, CR), such
 * as a `to_char(…, 'YYYY-MM-DD')` date: {@link csvCellSql} then writes it without the formula check,
 * the same bytes with the expression computed once per row instead of twice.
 */
export function formulaSafeSql<T extends SQLWrapper>(value: T): T {
  formulaSafeValues.add(value);
  return value;
}

/** The name of a CSV export's `index`th value in its ordered query (see {@link csvCopyQuery}). */
const valueName = (index: number) => `v${index}`;

/** For each of `columns`, `values[key]` as it is, named by its position (see {@link csvCopyQuery}). */
function csvValues<Key extends string>(
  columns: ReadonlyArray<CsvColumn<Key>>,
  values: Record<Key, SQLWrapper>,
): Record<string, SQL.Aliased> {
  return Object.fromEntries(
    columns.map(({ key }, index) => [
      valueName(index),
      sql`${columnValue(values, key)}`.as(valueName(index)),
    ]),
  );
}

function columnValue<Key extends string>(values: Record<Key, SQLWrapper>, key: Key): SQLWrapper {
  const value = values[key];
  if (!value) throw new Error(`no SQL value for the CSV column ${key}`);
  return value;
}

/**
 * The query of a CSV export written by PostgreSQL: over `ordered(selection)` (a select of `selection`,
 * the plain values, in the export's order), for each of `columns` (key and header, the list csvStream
 * takes) the cell
 * {@link csvCellSql} of its value, named after the header so that COPY's HEADER line is csvStream's;
 * `decimal` columns get a decimal comma in the `excel-fr` `dialect`. The cells are made above the
 * ordered rows, so that the planner sorts the plain values: with the cells in the sorted rows (628
 * bytes a sale), it walked the sales' date index and looked each sale's subscriber up, 12.7 s for a
 * million sales, where a COPY of the same columns hashes and sorts (7.6 s). A subquery with ORDER BY is
 * never merged into the query above it, and a select that only computes columns keeps its order. For
 * the speed goal of CSV within 1.5× of COPY (part 2 §7). Throws when a key has no value.
 */
export function csvCopyQuery<Key extends string>(
  columns: ReadonlyArray<CsvColumn<Key>>,
  values: Record<Key, SQLWrapper>,
  dialect: CsvDialect,
  ordered: (selection: Record<string, SQL.Aliased>) => SQL,
): SQL {
  const cells = columns.map(({ key, header, decimal }, index) => {
    const cell = csvCellSql(
      columnValue(values, key),
      decimal === true && dialect === 'excel-fr',
      sql.identifier(valueName(index)),
    );
    return sql`${cell} as ${sql.identifier(header)}`;
  });
  return sql`select ${sql.join(cells, sql`, `)} from (${ordered(csvValues(columns, values))}) ordered`;
}

/** The node-postgres pool under a Drizzle database, or undefined (PGlite, or a transaction). */
function poolOf(db: Executor): pg.Pool | undefined {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
}

/**
 * The statement {@link copyCsvStream} sends: `COPY (query) TO STDOUT WITH (FORMAT csv, HEADER)`, the
 * query's parameters written in as literals (COPY takes none), with the separator of `dialect`. Throws
 * on a Placeholder. For the speed goal of CSV within 3× of COPY.
 */
export function copyCsvStatement(query: SQL, dialect: CsvDialect = 'rfc4180'): string {
  const rendered = inlineDialect.sqlToQuery(query.inlineParams());
  if (rendered.params.length > 0) throw new Error('a COPY statement cannot take parameters');
  return `copy (${rendered.sql}) to stdout with (format csv, header, delimiter '${CSV_DELIMITERS[dialect]}')`;
}

/**
 * The rows of `query` as a CSV written by PostgreSQL ({@link copyCsvStatement}), streamed as they
 * come, behind a UTF-8 byte order mark (as csvStream). Resolves to undefined when `db` is not on a
 * node-postgres pool (PGlite has no COPY TO STDOUT stream, a transaction no pool): the caller then
 * writes the CSV itself. Make the query with {@link csvCopyQuery} for the same bytes as csvStream.
 *
 * The stream holds one pooled connection until COPY ends. If it fails or is destroyed before (the
 * query failed, the request was aborted), the connection is closed rather than returned to the pool
 * in the middle of a COPY. A failing query destroys the stream with PostgreSQL's error, before any
 * byte when it fails at once (the route can still answer with an error status). Rejects when no
 * connection can be had (pool timeout). `dialect` sets the separator (columns from csvSelection with the
 * same dialect). Made for the speed goal of CSV within 3× of COPY
 * (part 2 §7 Sales exports).
 */
export async function copyCsvStream(
  db: Executor,
  query: SQL,
  dialect: CsvDialect = 'rfc4180',
): Promise<Readable | undefined> {
  const pool = poolOf(db);
  if (!pool) return undefined;
  const statement = copyCsvStatement(query, dialect);
  const client = await pool.connect();
  let copy: Readable;
  try {
    await client.query(`set statement_timeout = '${EXPORT_STATEMENT_TIMEOUT}'`);
    copy = client.query(copyStreams.to(statement));
  } catch (error) {
    client.release(true);
    throw error;
  }
  // Released once: back to the pool (with the pool's timeout again) after a whole COPY, closed after
  // anything else.
  finished(copy, (error) => {
    if (error) return client.release(error);
    client.query('reset statement_timeout').then(
      () => client.release(),
      (resetError: Error) => client.release(resetError),
    );
  });
  let started = false;
  // The BOM goes with the first data (the header line), not before it: a query that fails at once
  // then fails before the response has begun.
  const withBom = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (started) return done(null, chunk);
      started = true;
      done(null, Buffer.concat([Buffer.from(UTF8_BOM), chunk]));
    },
  });
  pipeline(copy, withBom, () => {});
  return withBom;
}
