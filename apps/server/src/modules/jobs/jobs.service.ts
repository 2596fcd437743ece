import type { Job, JobKind } from '@back-office/contract/jobs';
import type { Database, Executor } from '../../db/client.ts';
import { createJobNotCancellableError, createJobNotFoundError } from './jobs.errors.ts';
import type { JobsRepository } from './jobs.repository.ts';
import type { JobRow } from './jobs.table.ts';

/** A job's progress as the API shows it: units done of `total`, null until the job reports any. */
export function jobProgress(row: Pick<JobRow, 'progressDone' | 'progressTotal'>) {
  return row.progressTotal === null ? null : { done: row.progressDone ?? 0, total: row.progressTotal };
}

/** A job row as the API shows it (contract `jobSchema`). */
export function toJob(row: JobRow): Job {
  const active = row.state === 'queued' || row.state === 'running';
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    state: row.state,
    progress: jobProgress(row),
    startedBy: row.startedBy,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    runAfter: row.runAfter.toISOString(),
    attempts: row.attempts,
    maxAttempts: row.repeatEveryMs === null ? row.maxAttempts : 0,
    lastError: row.lastError,
    cancelRequested: row.cancelRequested,
    repeats: row.repeatEveryMs !== null,
    cancellable: active && row.repeatEveryMs === null && !row.cancelRequested,
  };
}

/** What a kind of job undoes when it is cancelled before it started, in the cancelling transaction. */
export type QueuedCancelHooks = Partial<Record<JobKind, (tx: Executor, job: JobRow) => Promise<void>>>;

/** The Jobs screen's reads and the cancel action (docs/decisions/013). */
export function createJobsService({
  db,
  repository,
  queuedCancelHooks,
}: {
  db: Database;
  repository: JobsRepository;
  queuedCancelHooks: QueuedCancelHooks;
}) {
  return {
    list: async (): Promise<Job[]> => (await repository.list(db)).map(toJob),

    /**
     * Cancels job `id`: a queued job at once, a running one within a second (its handler stops at the
     * next safe point). @throws 404 `jobs.not_found`; 409 `jobs.not_cancellable` for a repeating job
     * or one that is over.
     */
    cancel: async (id: number): Promise<Job> => {
      const cancelled = await db.transaction(async (tx) => {
        const row = await repository.requestCancel(tx, id);
        if (row?.state === 'cancelled') await queuedCancelHooks[row.kind]?.(tx, row);
        return row;
      });
      if (cancelled) return toJob(cancelled);
      const job = await repository.find(db, id);
      if (!job) throw createJobNotFoundError(`No job has id ${id}.`);
      throw createJobNotCancellableError(
        job.repeatEveryMs !== null
          ? `"${job.title}" runs on its own and cannot be cancelled.`
          : `"${job.title}" is over (${job.state}) and cannot be cancelled.`,
      );
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;
