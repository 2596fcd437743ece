import { z } from 'zod';
import { donationExportQuerySchema } from './donations.ts';
import { jobStateSchema } from './jobs.ts';
import { subscriberExportQuerySchema } from './subscribers.ts';

/**
 * Large exports (not in the spec; docs/architecture.md, Background jobs): an export of more than {@link EXPORT_INLINE_ROW_LIMIT}
 * rows is not streamed by its `GET …/export` (which answers 409 `exports.too_large`) but written by a
 * background job into a file kept {@link EXPORT_FILE_HOURS} hours, which its author downloads when ready.
 */

/** Most rows a `GET /api/subscribers/export` or `GET /api/donations/export` streams itself. */
export const EXPORT_INLINE_ROW_LIMIT = 50_000;

/** How long a finished export file can be downloaded. */
export const EXPORT_FILE_HOURS = 24;

/** Which export a job writes: the subscribers' (`GET /api/subscribers/export`) or the donations'. */
export const exportSourceSchema = z.enum(['subscribers', 'donations']);
export type ExportSource = z.infer<typeof exportSourceSchema>;

/**
 * `POST /api/exports` body: the export and the query its `GET …/export` would take (the search's
 * filters plus `emailsOnly`, or plus `isdetailed`).
 */
export const startExportSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('subscribers'), query: subscriberExportQuerySchema }),
  z.object({ source: z.literal('donations'), query: donationExportQuerySchema }),
]);
export type StartExport = z.infer<typeof startExportSchema>;

/**
 * A large export as `POST /api/exports` and `GET /api/exports/{id}` answer it. `id` is its job's;
 * `progress` counts rows written of the rows matching when it started (null until known); `rows` and
 * `bytes` are those of the finished file; `expiresAt` is when the file goes (null until it is
 * written); date-times are ISO 8601; `error` says why it failed.
 */
export const exportFileSchema = z.object({
  id: z.number().int(),
  source: exportSourceSchema,
  fileName: z.string(),
  state: jobStateSchema,
  progress: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  rows: z.number().int().nullable(),
  bytes: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  error: z.string().nullable(),
  cancellable: z.boolean(),
});
export type ExportFile = z.infer<typeof exportFileSchema>;
