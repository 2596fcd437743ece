import { Readable } from 'node:stream';
import type { CsvDialect } from '@back-office/contract/common';
import { stringify } from 'csv-stringify/sync';
import { neutraliseFormula } from './spreadsheet/formula-safety.ts';

/** `Content-Type` of every CSV export. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** First character of every CSV export: Excel opens a UTF-8 CSV with accents intact only then. */
export const UTF8_BOM = '\ufeff';

/**
 * One column of a CSV export: the row key it reads and the header written above it. A `decimal` column
 * holds numbers written with a decimal point (`12.50`, `7.5`); the `excel-fr` dialect writes them with
 * a decimal comma.
 */
export type CsvColumn<Key extends string = string> = { key: Key; header: string; decimal?: boolean };

/** Field separator of each dialect (`?dialect=`, part 2 §7 The calls it makes). */
export const CSV_DELIMITERS: Record<CsvDialect, string> = { rfc4180: ',', 'excel-fr': ';' };

/** `12.50` → `12,50` in the `excel-fr` dialect; other values and dialects as they are. */
export function decimalCell(value: unknown, dialect: CsvDialect): unknown {
  if (dialect !== 'excel-fr' || (typeof value !== 'string' && typeof value !== 'number')) return value;
  return String(value).replace('.', ',');
}

/** Rows written to the stream at a time. */
const ROWS_PER_CHUNK = 1000;

const CAST = { boolean: (value: boolean) => (value ? 'true' : 'false') };

/**
 * A CSV stream of `rows` under `columns` headers, text cells neutralised. It starts with a byte
 * order mark ({@link UTF8_BOM}). `columns` maps each row key to its header. Rows are read as the
 * stream is consumed; if reading them fails, the stream is destroyed with that error (the download
 * fails rather than ending short). `dialect` (default `rfc4180`) sets the separator (`,` or `;`) and,
 * for `decimal` columns, the decimal mark (`.` or `,`). Fields holding the separator, a quote, CR or
 * LF are quoted, quotes doubled; null, undefined and '' are empty unquoted fields; records end with `\n`.
 */
export function csvStream<Row extends Record<string, unknown>>(
  rows: Iterable<Row> | AsyncIterable<Row>,
  columns: ReadonlyArray<CsvColumn<keyof Row & string>>,
  dialect: CsvDialect = 'rfc4180',
): Readable {
  const keys = columns.map((column) => column.key);
  const decimals = columns.map((column) => column.decimal === true && dialect === 'excel-fr');
  const options = { cast: CAST, delimiter: CSV_DELIMITERS[dialect] };
  // A thousand rows make one chunk of text: a stream chunk per row made the sales export (hundreds of
  // thousands of rows) spend most of its time in stream and socket calls (the export speed goal: CSV
  // within 3× of COPY).
  async function* chunks() {
    yield `${UTF8_BOM}${stringify([columns.map((column) => column.header)], options)}`;
    let batch: unknown[][] = [];
    for await (const row of rows) {
      batch.push(
        keys.map((key, index) =>
          neutraliseFormula(decimals[index] ? decimalCell(row[key], dialect) : row[key]),
        ),
      );
      if (batch.length === ROWS_PER_CHUNK) {
        yield stringify(batch, options);
        batch = [];
      }
    }
    if (batch.length > 0) yield stringify(batch, options);
  }
  return Readable.from(chunks(), { objectMode: false });
}
