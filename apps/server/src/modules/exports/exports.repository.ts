import type { ExportSource } from '@back-office/contract/exports';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { jobs } from '../jobs/jobs.table.ts';
import { exportFileChunks, exportFiles } from './exports.table.ts';

/** An export file with the state, progress and times of its job. */
export type ExportFileWithJob = NonNullable<Awaited<ReturnType<ExportsRepository['find']>>>;

const withJob = {
  jobId: exportFiles.jobId,
  userId: exportFiles.userId,
  source: exportFiles.source,
  fileName: exportFiles.fileName,
  contentType: exportFiles.contentType,
  rows: exportFiles.rows,
  bytes: exportFiles.bytes,
  expiresAt: exportFiles.expiresAt,
  createdAt: exportFiles.createdAt,
  state: jobs.state,
  progressDone: jobs.progressDone,
  progressTotal: jobs.progressTotal,
  finishedAt: jobs.finishedAt,
  lastError: jobs.lastError,
  cancelRequested: jobs.cancelRequested,
  payload: jobs.payload,
};

/** SQL of the large exports (contract `exports`): the files, their pieces, and their jobs read through a join. */
export function createExportsRepository() {
  return {
    create: async (
      db: Executor,
      file: { jobId: number; userId: number; source: ExportSource; fileName: string; contentType: string },
    ) => {
      await db.insert(exportFiles).values(file);
    },

    /**
     * How many exports of `userId` are queued or being written, under a lock held until the end of
     * the transaction: two requests at once count one after the other.
     */
    lockAndCountActive: async (tx: Executor, userId: number): Promise<number> => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('exports.start'), ${userId})`);
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(exportFiles)
        .innerJoin(jobs, eq(jobs.id, exportFiles.jobId))
        .where(and(eq(exportFiles.userId, userId), sql`${jobs.state} in ('queued', 'running')`));
      return row?.n ?? 0;
    },

    /** The export file of job `jobId` with its job, or undefined. */
    find: async (db: Executor, jobId: number) => {
      const [row] = await db
        .select(withJob)
        .from(exportFiles)
        .innerJoin(jobs, eq(jobs.id, exportFiles.jobId))
        .where(eq(exportFiles.jobId, jobId));
      return row;
    },

    /** Drops what an attempt wrote, so that the next one starts from an empty file. */
    clearChunks: async (db: Executor, jobId: number) => {
      await db.delete(exportFileChunks).where(eq(exportFileChunks.jobId, jobId));
    },

    appendChunk: async (db: Executor, { jobId, seq, data }: { jobId: number; seq: number; data: Buffer }) => {
      await db.insert(exportFileChunks).values({ jobId, seq, data });
    },

    /** Records the written file and when it goes. */
    finish: async (
      db: Executor,
      { jobId, rows, bytes, expiresAt }: { jobId: number; rows: number; bytes: number; expiresAt: Date },
    ) => {
      await db.update(exportFiles).set({ rows, bytes, expiresAt }).where(eq(exportFiles.jobId, jobId));
    },

    /** Piece `seq` of the file of job `jobId`, or undefined past the last. */
    chunk: async (db: Executor, jobId: number, seq: number): Promise<Buffer | undefined> => {
      const [row] = await db
        .select({ data: exportFileChunks.data })
        .from(exportFileChunks)
        .where(and(eq(exportFileChunks.jobId, jobId), eq(exportFileChunks.seq, seq)));
      return row?.data;
    },

    /** Whether a file is past its time, or belongs to an export that failed or was cancelled. */
    hasPurgeable: async (db: Executor, now: Date): Promise<boolean> => {
      const [row] = await db
        .select({ jobId: exportFiles.jobId })
        .from(exportFiles)
        .innerJoin(jobs, eq(jobs.id, exportFiles.jobId))
        .where(purgeable(now))
        .limit(1);
      return row !== undefined;
    },

    /** Deletes the files past their time and those of failed or cancelled exports; returns how many. */
    purge: async (db: Executor, now: Date): Promise<number> => {
      const doomed = db
        .select({ jobId: exportFiles.jobId })
        .from(exportFiles)
        .innerJoin(jobs, eq(jobs.id, exportFiles.jobId))
        .where(purgeable(now));
      const deleted = await db
        .delete(exportFiles)
        .where(inArray(exportFiles.jobId, doomed))
        .returning({ jobId: exportFiles.jobId });
      return deleted.length;
    },
  };
}

function purgeable(now: Date) {
  return or(
    lt(exportFiles.expiresAt, now),
    and(isNull(exportFiles.expiresAt), sql`${jobs.state} in ('failed', 'cancelled')`),
  );
}

export type ExportsRepository = ReturnType<typeof createExportsRepository>;
