import type { JobKind } from '@back-office/contract/jobs';
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type JobRow, jobs } from './jobs.table.ts';

/** A job to queue. `singletonKey`: no second queued or running job with that key is created. */
export type NewJob = {
  kind: JobKind;
  title: string;
  payload?: Record<string, unknown>;
  singletonKey?: string;
  startedBy?: string;
  maxAttempts?: number;
  leaseSeconds?: number;
};

const leaseEnd = sql`now() + make_interval(secs => ${jobs.leaseSeconds})`;
const isActive = inArray(jobs.state, ['queued', 'running']);

/** All SQL of the background jobs (docs/decisions/013). Times are the database's clock, shared by every process. */
export function createJobsRepository() {
  return {
    /**
     * Queues a job, in the caller's transaction so that it exists only if the work it stands for was
     * committed. Resolves with the new row, or with the active job of the same `singletonKey`.
     */
    enqueue: async (db: Executor, job: NewJob): Promise<JobRow> => {
      const [row] = await db
        .insert(jobs)
        .values({
          kind: job.kind,
          title: job.title,
          payload: job.payload ?? {},
          singletonKey: job.singletonKey ?? null,
          startedBy: job.startedBy ?? null,
          maxAttempts: job.maxAttempts ?? 5,
          leaseSeconds: job.leaseSeconds ?? 60,
        })
        .onConflictDoNothing({
          target: jobs.singletonKey,
          where: sql`${jobs.state} in ('queued', 'running')`,
        })
        .returning();
      if (row) return row;
      const [active] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.singletonKey, job.singletonKey ?? ''), isActive));
      if (!active) throw new Error(`job ${job.singletonKey} neither inserted nor found`);
      return active;
    },

    /**
     * Makes sure the repeating job `singletonKey` of `kind` exists (once per database, whatever the
     * number of processes) and takes the given period and lease, so a changed setting applies at the
     * next start.
     */
    ensureRepeating: async (
      db: Executor,
      job: { kind: JobKind; singletonKey: string; title: string; everyMs: number; leaseSeconds: number },
    ): Promise<void> => {
      await db
        .insert(jobs)
        .values({
          kind: job.kind,
          title: job.title,
          singletonKey: job.singletonKey,
          repeatEveryMs: job.everyMs,
          leaseSeconds: job.leaseSeconds,
          maxAttempts: 1_000_000,
        })
        .onConflictDoUpdate({
          target: jobs.singletonKey,
          targetWhere: sql`${jobs.state} in ('queued', 'running')`,
          set: { repeatEveryMs: job.everyMs, leaseSeconds: job.leaseSeconds, title: job.title },
        });
    },

    /**
     * Claims one due job of the given kinds for `workerId`: a queued job whose time has come, or a
     * running one whose lease ran out (its process stopped) or that this worker holds without running
     * it (not in `runningIds`: its end could not be recorded). Counts the attempt and starts the lease,
     * in one statement that commits at once; `SKIP LOCKED` gives two processes two different jobs.
     * A job whose lease ran out on its last attempt is `failed` instead (a job that kills its process
     * is not tried for ever). Resolves with the claimed row, or undefined when nothing is due.
     */
    claimDue: async (
      db: Executor,
      {
        kinds,
        workerId,
        runningIds = [],
      }: { kinds: readonly JobKind[]; workerId: string; runningIds?: number[] },
    ): Promise<JobRow | undefined> => {
      if (kinds.length === 0) return undefined;
      // A job this worker holds but no longer runs (its end could not be recorded: database outage).
      const abandoned =
        runningIds.length > 0
          ? sql`(${jobs.lockedBy} = ${workerId} and not ${inArray(jobs.id, runningIds)})`
          : sql`${jobs.lockedBy} = ${workerId}`;
      for (;;) {
        const [row] = await db
          .update(jobs)
          .set({
            state: sql`case when ${jobs.state} = 'running' and ${jobs.attempts} >= ${jobs.maxAttempts} then 'failed' else 'running' end`,
            lockedBy: sql`case when ${jobs.state} = 'running' and ${jobs.attempts} >= ${jobs.maxAttempts} then null else ${workerId} end`,
            lockedUntil: sql`case when ${jobs.state} = 'running' and ${jobs.attempts} >= ${jobs.maxAttempts} then null else ${leaseEnd} end`,
            finishedAt: sql`case when ${jobs.state} = 'running' and ${jobs.attempts} >= ${jobs.maxAttempts} then now() end`,
            lastError: sql`case when ${jobs.state} = 'running' and ${jobs.attempts} >= ${jobs.maxAttempts} then 'Its server process stopped during every attempt.' else ${jobs.lastError} end`,
            attempts: sql`case when ${jobs.state} = 'running' and ${jobs.attempts} >= ${jobs.maxAttempts} then ${jobs.attempts} else ${jobs.attempts} + 1 end`,
            startedAt: sql`coalesce(${jobs.startedAt}, now())`,
          })
          .where(
            sql`${jobs.id} = (
              select ${jobs.id} from ${jobs}
               where ${inArray(jobs.kind, [...kinds])}
                 and ((${jobs.state} = 'queued' and ${jobs.runAfter} <= now())
                   or (${jobs.state} = 'running' and (${jobs.lockedUntil} < now() or ${abandoned})))
               order by ${jobs.runAfter}, ${jobs.id}
               limit 1
               for update skip locked)`,
          )
          .returning();
        if (!row) return undefined;
        if (row.state === 'running') return row;
      }
    },

    /**
     * Renews the lease of a job `workerId` holds and records its progress. Resolves with whether
     * cancelling was asked, or `lost` when the job is no longer this worker's (its lease ran out and
     * another took it, or it was finished elsewhere).
     */
    renew: async (
      db: Executor,
      { id, workerId, done, total }: { id: number; workerId: string; done?: number; total?: number },
    ): Promise<{ cancelRequested: boolean } | 'lost'> => {
      const [row] = await db
        .update(jobs)
        .set({
          lockedUntil: leaseEnd,
          ...(done === undefined ? {} : { progressDone: done }),
          ...(total === undefined ? {} : { progressTotal: total }),
        })
        .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running')))
        .returning({ cancelRequested: jobs.cancelRequested });
      return row ?? 'lost';
    },

    /**
     * Ends a pass of a job this worker holds: `succeeded` (a repeating job is queued again for its
     * next pass), `cancelled`, `released` (the process is stopping: queued again at once, the attempt
     * not counted) or `failed` with `error` (queued again after a back-off while attempts are left).
     */
    finish: async (
      db: Executor,
      {
        id,
        workerId,
        outcome,
        error,
      }: {
        id: number;
        workerId: string;
        outcome: 'succeeded' | 'cancelled' | 'released' | 'failed';
        error?: string;
      },
    ): Promise<void> => {
      const mine = and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running'));
      const unlocked = { lockedBy: null, lockedUntil: null };
      if (outcome === 'released') {
        await db
          .update(jobs)
          .set({ ...unlocked, state: 'queued', runAfter: sql`now()`, attempts: sql`${jobs.attempts} - 1` })
          .where(mine);
      } else if (outcome === 'cancelled') {
        await db
          .update(jobs)
          .set({ ...unlocked, state: 'cancelled', finishedAt: sql`now()` })
          .where(mine);
      } else if (outcome === 'succeeded') {
        await db
          .update(jobs)
          .set({
            ...unlocked,
            state: sql`case when ${jobs.repeatEveryMs} is null then 'succeeded' else 'queued' end`,
            runAfter: sql`case when ${jobs.repeatEveryMs} is null then ${jobs.runAfter}
                               else now() + make_interval(secs => ${jobs.repeatEveryMs} / 1000.0) end`,
            attempts: sql`case when ${jobs.repeatEveryMs} is null then ${jobs.attempts} else 0 end`,
            finishedAt: sql`now()`,
            lastError: null,
          })
          .where(mine);
      } else {
        const retry = sql`(${jobs.repeatEveryMs} is not null or ${jobs.attempts} < ${jobs.maxAttempts})`;
        // 10 s, 20 s, 40 s ... capped at 1 h; a repeating job just waits its period (its units of work,
        // such as outbox messages, have their own back-off).
        const delay = sql`case when ${jobs.repeatEveryMs} is null
          then least(3600, 10 * power(2, greatest(0, ${jobs.attempts} - 1)))
          else ${jobs.repeatEveryMs} / 1000.0 end`;
        await db
          .update(jobs)
          .set({
            ...unlocked,
            state: sql`case when ${retry} then 'queued' else 'failed' end`,
            runAfter: sql`case when ${retry} then now() + make_interval(secs => ${delay}) else ${jobs.runAfter} end`,
            finishedAt: sql`case when ${retry} then ${jobs.finishedAt} else now() end`,
            lastError: (error ?? 'Failed.').slice(0, 2000),
          })
          .where(mine);
      }
    },

    /** Brings forward the next pass of the queued jobs of `kind` (new mail was queued, a run was started). */
    wake: async (db: Executor, kind: JobKind): Promise<void> => {
      await db
        .update(jobs)
        .set({ runAfter: sql`now()` })
        .where(and(eq(jobs.kind, kind), eq(jobs.state, 'queued'), sql`${jobs.runAfter} > now()`));
    },

    /**
     * Asks a job to stop: a queued one is `cancelled` at once, a running one when its worker next
     * renews its lease. Repeating jobs and finished jobs are left alone. Resolves with the row after
     * the change, or undefined when there was nothing to cancel.
     */
    requestCancel: async (db: Executor, id: number): Promise<JobRow | undefined> => {
      const [row] = await db
        .update(jobs)
        .set({
          cancelRequested: true,
          state: sql`case when ${jobs.state} = 'queued' then 'cancelled' else ${jobs.state} end`,
          finishedAt: sql`case when ${jobs.state} = 'queued' then now() else ${jobs.finishedAt} end`,
        })
        .where(and(eq(jobs.id, id), isNull(jobs.repeatEveryMs), isActive))
        .returning();
      return row;
    },

    find: async (db: Executor, id: number): Promise<JobRow | undefined> => {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
      return row;
    },

    /** The repeating jobs, then the 50 newest others. */
    list: async (db: Executor): Promise<JobRow[]> => {
      const repeating = await db
        .select()
        .from(jobs)
        .where(isNotNull(jobs.repeatEveryMs))
        .orderBy(jobs.kind, jobs.singletonKey);
      const others = await db
        .select()
        .from(jobs)
        .where(isNull(jobs.repeatEveryMs))
        .orderBy(desc(jobs.id))
        .limit(50);
      return [...repeating, ...others];
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
