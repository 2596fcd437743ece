import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobKind } from '@back-office/contract/jobs';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { Database } from '../../db/client.ts';
import { createPollingWorker } from '../../lib/polling-worker.ts';
import { databaseUnavailableReason } from '../../lib/postgres-errors.ts';
import type { JobsRepository } from './jobs.repository.ts';
import type { JobRow } from './jobs.table.ts';

/** What a handler gets: its job row, when to stop, and where to report progress. */
export type JobContext = {
  job: JobRow;
  /** True once the handler should stop at the next safe point: cancelled, process stopping, or job lost. */
  shouldStop: () => boolean;
  /** True when staff cancelled the job (as opposed to the process stopping). */
  cancelRequested: () => boolean;
  /** Units of work done of `total` (emails, donors); written with the next lease renewal. */
  progress: (done: number, total: number) => void;
};

/**
 * Does a job's work. Must be safe to run again after a crash and alongside another process running
 * the same job (each unit of work claims its own rows). Resolves `'stopped'` when it stopped before the
 * end because `shouldStop()` said so; anything else means the work is done. Throws to fail the attempt.
 */
export type JobHandler = (context: JobContext) => Promise<undefined | 'stopped'>;

/**
 * A job the server schedules itself: `instances` jobs of the kind (default 1) always exist, each run
 * every `everyMs` after the end of its previous pass. A process runs at most one of them at a time,
 * so that with several instances several processes share the work.
 */
export type RepeatOptions = {
  title: string;
  everyMs: number;
  leaseSeconds: number;
  instances?: number;
  /** A cheap read that says whether a pass has anything to do; without work the job is not claimed. */
  hasWork?: () => Promise<boolean>;
};

type Registration = {
  handler: JobHandler;
  repeat?: RepeatOptions;
  /** Most jobs of the kind this process runs at once (default: up to the runner's concurrency). */
  maxRunning?: number;
};

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/** Renewals (lease and progress) happen this often at most, so the Jobs screen moves every second. */
const MAX_RENEW_INTERVAL_MS = 1000;

function reasonOf(error: unknown): string {
  return (
    databaseUnavailableReason(error) ?? String(error instanceof DrizzleQueryError ? error.cause : error)
  ).slice(0, 2000);
}

/**
 * The one runner of background jobs (docs/decisions/013): every process polls the `jobs` table, claims
 * due jobs of the kinds it has handlers for (up to `concurrency` at once), renews their lease while
 * they run, and records how each pass ended (retries with back-off, repeating jobs queued again).
 * `start()` begins polling; `stop()` asks running handlers to stop and hands their jobs back;
 * `runDue()` runs what is due now, one job at a time, for tests and benchmarks.
 */
export function createJobRunner({
  db,
  repository,
  logger,
  pollIntervalMs,
  concurrency = 3,
  workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
}: {
  db: Database;
  repository: JobsRepository;
  logger: Logger;
  pollIntervalMs: number;
  concurrency?: number;
  workerId?: string;
}) {
  const registrations = new Map<JobKind, Registration>();
  const active = new Set<Promise<void>>();
  const runningIds = new Set<number>();
  const runningKinds = new Map<number, JobKind>();

  /**
   * The kinds this process may claim now: not a repeating kind it is already running, nor a kind it
   * runs its `maxRunning` of, nor one whose `hasWork()` says there is nothing to do (an idle repeating
   * job writes nothing).
   */
  async function claimableKinds(): Promise<JobKind[]> {
    const running = new Map<JobKind, number>();
    for (const kind of runningKinds.values()) running.set(kind, (running.get(kind) ?? 0) + 1);
    const kinds: JobKind[] = [];
    for (const [kind, { repeat, maxRunning }] of registrations) {
      const runningOfKind = running.get(kind) ?? 0;
      if (repeat && runningOfKind > 0) continue;
      if (maxRunning !== undefined && runningOfKind >= maxRunning) continue;
      if (repeat?.hasWork && !(await repeat.hasWork())) continue;
      kinds.push(kind);
    }
    return kinds;
  }
  let started = false;
  let stopping = false;
  let repeatingEnsured = false;

  async function ensureRepeating() {
    if (repeatingEnsured) return;
    for (const [kind, { repeat }] of registrations) {
      if (!repeat) continue;
      const instances = repeat.instances ?? 1;
      for (let instance = 1; instance <= instances; instance += 1) {
        await repository.ensureRepeating(db, {
          kind,
          singletonKey: instances === 1 ? kind : `${kind}:${instance}`,
          title: instances === 1 ? repeat.title : `${repeat.title} (${instance} of ${instances})`,
          everyMs: repeat.everyMs,
          leaseSeconds: repeat.leaseSeconds,
        });
      }
    }
    repeatingEnsured = true;
  }

  /** Runs one claimed job to the end of its pass and records the outcome. */
  async function execute(job: JobRow, externalStop: () => boolean = () => false): Promise<void> {
    const registration = registrations.get(job.kind);
    let cancelRequested = job.cancelRequested;
    let lost = false;
    let progress: { done: number; total: number } | undefined;
    const shouldStop = () => stopping || cancelRequested || lost || externalStop();
    const renew = async () => {
      try {
        const renewed = await repository.renew(db, { id: job.id, workerId, ...progress });
        if (renewed === 'lost') lost = true;
        else cancelRequested ||= renewed.cancelRequested;
      } catch (error) {
        logger.warn({ jobId: job.id, reason: reasonOf(error) }, 'job lease not renewed');
      }
    };
    const renewEveryMs = Math.min(MAX_RENEW_INTERVAL_MS, (job.leaseSeconds * 1000) / 3);
    const timer = setInterval(() => void renew(), renewEveryMs);
    let outcome: 'succeeded' | 'cancelled' | 'released' | 'failed';
    let error: string | undefined;
    try {
      if (!registration) throw new Error(`No handler for jobs of kind ${job.kind}.`);
      const result = await registration.handler({
        job,
        shouldStop,
        cancelRequested: () => cancelRequested,
        progress: (done, total) => {
          progress = { done, total };
        },
      });
      outcome = result !== 'stopped' ? 'succeeded' : cancelRequested ? 'cancelled' : 'released';
    } catch (thrown) {
      outcome = 'failed';
      error = reasonOf(thrown);
      logger.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, reason: error }, 'job failed');
    } finally {
      clearInterval(timer);
    }
    if (progress) await renew();
    if (lost) {
      logger.warn(
        { jobId: job.id, kind: job.kind },
        'job taken over by another process after its lease ran out',
      );
      return;
    }
    await repository.finish(db, { id: job.id, workerId, outcome, error });
  }

  /** Claims due jobs while slots are free and starts them; resolves with how many were started. */
  async function fill(shouldStop: () => boolean): Promise<number> {
    await ensureRepeating();
    let started = 0;
    while (active.size < concurrency && !shouldStop() && !stopping) {
      const job = await repository.claimDue(db, {
        kinds: await claimableKinds(),
        workerId,
        runningIds: [...runningIds],
      });
      if (!job) break;
      started += 1;
      runningIds.add(job.id);
      runningKinds.set(job.id, job.kind);
      const run: Promise<void> = execute(job)
        .catch((error: unknown) =>
          logger.warn({ jobId: job.id, reason: reasonOf(error) }, 'job not recorded'),
        )
        .finally(() => {
          active.delete(run);
          runningIds.delete(job.id);
          runningKinds.delete(job.id);
          poller.nudge();
        });
      active.add(run);
    }
    return started;
  }

  const poller = createPollingWorker({
    work: fill,
    pollIntervalMs,
    onError: (error) =>
      logger.warn({ reason: reasonOf(error) }, 'background jobs could not reach the database'),
  });

  return {
    /**
     * Says how to run jobs of `kind`. With `repeat`, one job of that kind always exists and runs every
     * `everyMs` (after the end of the previous pass), with a lease of `leaseSeconds`.
     */
    register(kind: JobKind, handler: JobHandler, options: Omit<Registration, 'handler'> = {}) {
      registrations.set(kind, { handler, ...options });
      repeatingEnsured = false;
    },

    start: () => {
      started = true;
      stopping = false;
      poller.start();
    },

    /** Stops claiming, asks the running handlers to stop, and waits until their jobs are handed back. */
    stop: async () => {
      stopping = true;
      await poller.stop();
      await Promise.all([...active]);
    },

    /**
     * Wakes the queued jobs of `kind` (their next pass is now) and looks for work soon; nothing before
     * `start()`. Errors are logged: the next poll finds the work anyway.
     */
    nudge: (kind?: JobKind) => {
      if (!started || stopping) return;
      const woken = kind ? repository.wake(db, kind) : Promise.resolve();
      woken
        .catch((error: unknown) => logger.warn({ kind, reason: reasonOf(error) }, 'job not woken'))
        .finally(() => poller.nudge());
    },

    /**
     * Runs the jobs due now, one at a time, each at most once (a repeating job's next pass waits for
     * its period); resolves with the ids run. `shouldStop` stops them as a shutdown would.
     */
    runDue: async ({ shouldStop }: { shouldStop?: () => boolean } = {}): Promise<number[]> => {
      await ensureRepeating();
      const ran: number[] = [];
      for (;;) {
        const job = await repository.claimDue(db, { kinds: await claimableKinds(), workerId });
        if (!job) return ran;
        if (ran.includes(job.id)) {
          await repository.finish(db, { id: job.id, workerId, outcome: 'released' });
          return ran;
        }
        ran.push(job.id);
        await execute(job, shouldStop);
        if (shouldStop?.()) return ran;
      }
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
