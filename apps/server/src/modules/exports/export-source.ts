import type { Readable } from 'node:stream';
import { createExportTooLargeError } from './exports.errors.ts';

/**
 * One of a module's exports, as the background exports write it (contract `exports`): the same query
 * as its `GET …/export`, the same file.
 */
export type ExportSource<Query> = {
  /** The name the file is saved under, e.g. `subscribers-export.xlsx`. */
  fileName: (query: Query) => string;
  contentType: string;
  /** Rows the export of `query` writes; with `cap`, counting stops past it (`cap + 1` means "more"). */
  countRows: (query: Query, cap?: number) => Promise<number>;
  /** The file, streamed; `onRows` hears the rows read so far as each batch is read. */
  stream: (query: Query, onRows?: (rowsRead: number) => void) => Readable;
};

/**
 * For a `GET …/export`: resolves when `query` matches at most `limit` rows. @throws 409
 * `exports.too_large` above, naming the limit: such an export is started with `POST /api/exports`.
 */
export async function assertInlineExport<Query>(
  source: ExportSource<Query>,
  query: Query,
  limit: number,
): Promise<void> {
  if ((await source.countRows(query, limit)) <= limit) return;
  throw createExportTooLargeError(
    `This export has more than ${limit.toLocaleString('fr-FR')} rows: it is prepared in the background (POST /api/exports).`,
  );
}
