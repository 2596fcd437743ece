import { Readable } from 'node:stream';
import type { DonationExportQuery } from '@back-office/contract/donations';
import {
  EXPORT_FILE_HOURS,
  type ExportFile,
  type ExportSource as ExportSourceName,
  type StartExport,
  startExportSchema,
} from '@back-office/contract/exports';
import type { SubscriberExportQuery } from '@back-office/contract/subscribers';
import type { Database } from '../../db/client.ts';
import { createTooManyExportsError } from '../../http/export-limits.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { JobsRepository } from '../jobs/jobs.repository.ts';
import type { JobContext } from '../jobs/jobs.runner.ts';
import { jobProgress } from '../jobs/jobs.service.ts';
import type { ExportSource } from './export-source.ts';
import {
  createExportExpiredError,
  createExportNotCancellableError,
  createExportNotFoundError,
  createExportNotReadyError,
} from './exports.errors.ts';
import type { ExportFileWithJob, ExportsRepository } from './exports.repository.ts';

/** The file is stored in pieces of this size (about a megabyte each). */
const CHUNK_BYTES = 1024 * 1024;
const HOUR_MS = 3_600_000;
/** Exports one user may have queued or being written at once (each keeps a core busy a while). */
export const ACTIVE_EXPORTS_PER_USER = 2;

/** Each module's export, by the name `POST /api/exports` gives it. */
export type ExportSources = {
  subscribers: ExportSource<SubscriberExportQuery>;
  donations: ExportSource<DonationExportQuery>;
};

function toExportFile(row: ExportFileWithJob): ExportFile {
  const active = row.state === 'queued' || row.state === 'running';
  return {
    id: row.jobId,
    source: row.source,
    fileName: row.fileName,
    state: row.state,
    progress: jobProgress(row),
    rows: row.rows,
    bytes: row.bytes,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    error: row.state === 'failed' ? row.lastError : null,
    cancellable: active && !row.cancelRequested,
  };
}

/**
 * Large exports (contract `exports`): started by any signed-in user, written by an `exports.file` job
 * into pieces in the database (so that any server process can write or serve it), downloaded by the
 * user who asked for it during {@link EXPORT_FILE_HOURS} hours, then purged by `exports.purge`.
 */
export function createExportsService({
  db,
  repository,
  jobs,
  sources,
  clock,
  nudge,
  chunkBytes = CHUNK_BYTES,
}: {
  db: Database;
  repository: ExportsRepository;
  jobs: Pick<JobsRepository, 'enqueue' | 'requestCancel'>;
  sources: ExportSources;
  clock: Clock;
  /** Tells the job runner there is an export to write. */
  nudge: () => void;
  /** Size of the pieces the file is stored in. */
  chunkBytes?: number;
}) {
  /** The export `id` of `user`. @throws 404 `exports.not_found` for another user's or an unknown one. */
  async function findOwn(id: number, user: AuthUser): Promise<ExportFileWithJob> {
    const row = await repository.find(db, id);
    if (!row || row.userId !== user.id) throw createExportNotFoundError(`No export has id ${id}.`);
    return row;
  }

  function sourceOf(name: ExportSourceName): ExportSource<unknown> {
    return sources[name] as ExportSource<unknown>;
  }

  return {
    /**
     * Queues the export `request` for `user`; its job writes the file. Returns the export, `queued`.
     * @throws 429 `exports.too_many` while the user has {@link ACTIVE_EXPORTS_PER_USER} under way.
     */
    start: async ({ source, query }: StartExport, user: AuthUser): Promise<ExportFile> => {
      const fileName = sourceOf(source).fileName(query);
      const jobId = await db.transaction(async (tx) => {
        if ((await repository.lockAndCountActive(tx, user.id)) >= ACTIVE_EXPORTS_PER_USER) {
          throw createTooManyExportsError(
            `You already have ${ACTIVE_EXPORTS_PER_USER} exports under way: wait for one to finish, or cancel one.`,
          );
        }
        const job = await jobs.enqueue(tx, {
          kind: 'exports.file',
          title: `Export ${fileName}`,
          payload: { source, query },
          startedBy: user.fullName,
          maxAttempts: 3,
        });
        await repository.create(tx, {
          jobId: job.id,
          userId: user.id,
          source,
          fileName,
          contentType: sourceOf(source).contentType,
        });
        return job.id;
      });
      nudge();
      return toExportFile(await findOwn(jobId, user));
    },

    /** The export `id` of `user`, with its progress. @throws 404 `exports.not_found`. */
    get: async (id: number, user: AuthUser): Promise<ExportFile> => toExportFile(await findOwn(id, user)),

    /**
     * The written file of export `id` of `user` and its size in bytes, read a piece at a time as it is
     * sent; a file removed while it is sent ends the stream with an error.
     * @throws 404 `exports.not_found`; 409 `exports.not_ready` while it is written, or when it failed
     * or was cancelled; 410 `exports.expired` past its time.
     */
    file: async (id: number, user: AuthUser) => {
      const row = await findOwn(id, user);
      if (row.state !== 'succeeded' || row.expiresAt === null) {
        throw createExportNotReadyError(
          row.state === 'queued' || row.state === 'running'
            ? `${row.fileName} is still being written.`
            : `${row.fileName} was not written: the export ${row.state === 'failed' ? 'failed' : 'was cancelled'}.`,
        );
      }
      if (row.expiresAt <= clock.now()) throw createExportExpiredError(`${row.fileName} is no longer kept.`);
      const size = row.bytes ?? 0;
      async function* pieces() {
        let sent = 0;
        for (let seq = 0; sent < size; seq += 1) {
          const data = await repository.chunk(db, id, seq);
          // Purged meanwhile: the download fails rather than ending as if the file were whole.
          if (!data) throw new Error(`${row.fileName} was removed while it was being sent.`);
          sent += data.length;
          yield data;
        }
      }
      return {
        fileName: row.fileName,
        contentType: row.contentType,
        bytes: size,
        body: Readable.from(pieces()),
      };
    },

    /**
     * Cancels export `id` of `user`: at once while queued, within a second while written.
     * @throws 404 `exports.not_found`; 409 `exports.not_cancellable` once it is over.
     */
    cancel: async (id: number, user: AuthUser): Promise<ExportFile> => {
      const row = await findOwn(id, user);
      const cancelled = await jobs.requestCancel(db, row.jobId);
      if (!cancelled) {
        throw createExportNotCancellableError(`The export of ${row.fileName} is over (${row.state}).`);
      }
      return toExportFile(await findOwn(id, user));
    },

    /**
     * The handler of `exports.file` jobs: writes the file from the start (what an earlier attempt
     * wrote is dropped), reporting rows read of rows matching, and keeps it {@link EXPORT_FILE_HOURS}
     * hours. Stopped (cancel, shutdown), it drops what it wrote.
     */
    runJob: async ({ job, shouldStop, progress }: JobContext): Promise<undefined | 'stopped'> => {
      const file = await repository.find(db, job.id);
      if (!file) return;
      const { source, query } = startExportSchema.parse(job.payload);
      const exportSource = sourceOf(source);
      await repository.clearChunks(db, job.id);
      const total = await exportSource.countRows(query);
      let rows = 0;
      progress(0, total);
      const stream = exportSource.stream(query, (read) => {
        rows = read;
        progress(Math.min(read, total), Math.max(read, total));
      });
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let bytes = 0;
      let seq = 0;
      // One piece is stored while the next is written: the file is made without waiting on each insert.
      let storing: Promise<void> = Promise.resolve();
      const flush = async () => {
        await storing;
        if (pendingBytes === 0) return;
        const piece = { jobId: job.id, seq, data: Buffer.concat(pending) };
        storing = repository.appendChunk(db, piece).then(() => undefined);
        // Observed at the next flush; until then a failure must not be an unhandled rejection.
        storing.catch(() => {});
        seq += 1;
        bytes += pendingBytes;
        pending = [];
        pendingBytes = 0;
      };
      try {
        for await (const piece of stream) {
          if (shouldStop()) {
            stream.destroy();
            await storing.catch(() => {});
            await repository.clearChunks(db, job.id);
            return 'stopped';
          }
          pending.push(piece as Buffer);
          pendingBytes += (piece as Buffer).length;
          if (pendingBytes >= chunkBytes) await flush();
        }
        await flush();
        await storing;
      } catch (error) {
        stream.destroy();
        await storing.catch(() => {});
        await repository.clearChunks(db, job.id);
        throw error;
      }
      await repository.finish(db, {
        jobId: job.id,
        rows,
        bytes,
        expiresAt: new Date(clock.now().getTime() + EXPORT_FILE_HOURS * HOUR_MS),
      });
      return undefined;
    },

    /** Whether `purge` has anything to delete. */
    hasPurgeable: () => repository.hasPurgeable(db, clock.now()),

    /** Deletes the files past their time and those of failed or cancelled exports. */
    purge: () => repository.purge(db, clock.now()),
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
