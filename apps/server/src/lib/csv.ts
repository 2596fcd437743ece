import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { neutraliseFormula } from './spreadsheet/formula-safety.ts';

/** `Content-Type` of every CSV export. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * A CSV stream of `rows` under `columns` headers, text cells neutralised. It starts with a byte
 * order mark: Excel opens a UTF-8 CSV with accents intact only then.
 * `columns` maps each row key to its header.
 */
export function csvStream<Row extends Record<string, unknown>>(
  rows: Iterable<Row> | AsyncIterable<Row>,
  columns: ReadonlyArray<{ key: keyof Row & string; header: string }>,
) {
  const stringifier = stringify({
    bom: true,
    header: true,
    columns: columns.map((column) => ({ key: column.key, header: column.header })),
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
  async function* safeRows() {
    for await (const row of rows) {
      const safe: Record<string, unknown> = {};
      for (const column of columns) safe[column.key] = neutraliseFormula(row[column.key]);
      yield safe;
    }
  }
  // pipeline destroys the stringifier, failing the download, if reading the rows fails.
  pipeline(Readable.from(safeRows()), stringifier, () => {});
  return stringifier;
}
