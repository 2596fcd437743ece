import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { neutraliseFormula } from './spreadsheet/formula-safety.ts';

/** `Content-Type` of every CSV export. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** First character of every CSV export: Excel opens a UTF-8 CSV with accents intact only then. */
export const UTF8_BOM = '\ufeff';

/** One column of a CSV export: the row key it reads and the header written above it. */
export type CsvColumn<Key extends string = string> = { key: Key; header: string };

/** Rows written to the stream at a time. */
const ROWS_PER_CHUNK = 1000;

const CSV_OPTIONS = { cast: { boolean: (value: boolean) => (value ? 'true' : 'false') } };

/**
 * A CSV stream of `rows` under `columns` headers, text cells neutralised. It starts with a byte
 * order mark ({@link UTF8_BOM}). `columns` maps each row key to its header. Rows are read as the
 * stream is consumed; if reading them fails, the stream is destroyed with that error (the download
 * fails rather than ending short). Fields holding a comma, a quote, CR or LF are quoted, quotes
 * doubled; null, undefined and '' are empty unquoted fields; records end with `\n`.
 */
export function csvStream<Row extends Record<string, unknown>>(
  rows: Iterable<Row> | AsyncIterable<Row>,
  columns: ReadonlyArray<CsvColumn<keyof Row & string>>,
): Readable {
  const keys = columns.map((column) => column.key);
  // A thousand rows make one chunk of text: a stream chunk per row made the sales export (hundreds of
  // thousands of rows) spend most of its time in stream and socket calls (the export speed goal: CSV
  // within 3× of COPY).
  async function* chunks() {
    yield `${UTF8_BOM}${stringify([columns.map((column) => column.header)], CSV_OPTIONS)}`;
    let batch: unknown[][] = [];
    for await (const row of rows) {
      batch.push(keys.map((key) => neutraliseFormula(row[key])));
      if (batch.length === ROWS_PER_CHUNK) {
        yield stringify(batch, CSV_OPTIONS);
        batch = [];
      }
    }
    if (batch.length > 0) yield stringify(batch, CSV_OPTIONS);
  }
  return Readable.from(chunks(), { objectMode: false });
}
