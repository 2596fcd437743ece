import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { sendDownload } from '../../http/send-download.ts';
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
 * Answers a `GET …/export` with the file of `query`, streamed, when it has at most `limit` rows.
 * @throws 409 `exports.too_large` above, naming the limit: such an export is started with
 * `POST /api/exports`.
 */
export async function sendInlineExport<Query>(
  reply: FastifyReply,
  { source, query, limit }: { source: ExportSource<Query>; query: Query; limit: number },
) {
  if ((await source.countRows(query, limit)) > limit) {
    throw createExportTooLargeError(
      `This export has more than ${limit.toLocaleString('fr-FR')} rows: it is prepared in the background (POST /api/exports).`,
    );
  }
  return sendDownload(reply, {
    filename: source.fileName(query),
    contentType: source.contentType,
    body: source.stream(query),
  });
}
