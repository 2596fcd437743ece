import {
  EXPORT_INLINE_ROW_LIMIT,
  type ExportFile,
  exportFileSchema,
  type startExportSchema,
} from '@back-office/contract/exports';
import type { z } from 'zod';
import { apiDownload, apiRequest, type DownloadedFile } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';

/** The spreadsheet type of every export file. */
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * What a search screen knows of its matches: `count` (undefined before a search has answered) and
 * whether it is exact (false: the server's estimate, above 10,000 matches).
 */
export type SearchMatches = { count: number | undefined; countIsExact: boolean };

/**
 * True when an export of these matches goes straight to the background: more than
 * {@link EXPORT_INLINE_ROW_LIMIT} rows, or a count the server only estimated. An unknown count is tried
 * inline (the server answers 409 `exports.too_large` when it is too big).
 */
export function exportsInBackground(matches: SearchMatches): boolean {
  if (matches.count === undefined) return false;
  return !matches.countIsExact || matches.count > EXPORT_INLINE_ROW_LIMIT;
}

/** True for the 409 `exports.too_large` of a `GET …/export` whose matches grew past the inline limit. */
export function isExportTooLarge(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === 'exports.too_large';
}

/**
 * A `POST /api/exports` body as the client writes it: the query as the `GET …/export` query string is
 * written from (the schema's input: ids and flags may still be text).
 */
export type StartExportBody = z.input<typeof startExportSchema>;

/** `POST /api/exports` `{source, query}` -> 202 {@link ExportFile}: the file is written in the background. */
export function startExport(request: StartExportBody): Promise<ExportFile> {
  return apiRequest('/api/exports', { method: 'POST', body: request, schema: exportFileSchema });
}

/** `GET /api/exports/{id}` -> {@link ExportFile}: its state and the rows written so far. */
export function getExport(id: number): Promise<ExportFile> {
  return apiRequest(`/api/exports/${id}`, { schema: exportFileSchema });
}

/**
 * `POST /api/exports/{id}/cancel` -> {@link ExportFile}. A running export stops at its next safe
 * point; 409 `exports.not_cancellable` when it is already over.
 */
export function cancelExport(id: number): Promise<ExportFile> {
  return apiRequest(`/api/exports/${id}/cancel`, { method: 'POST', schema: exportFileSchema });
}

/** `GET /api/exports/{id}/file` -> the XLSX of a succeeded export and its name (`Content-Disposition`). */
export function downloadExportFile(id: number): Promise<DownloadedFile> {
  return apiDownload(`/api/exports/${id}/file`, { accept: XLSX_TYPE });
}
