import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { type Executor, preparedPerConnection, queryRows } from '../../db/client.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import { annualRunItems, annualRuns } from './annual-runs.table.ts';

type ItemStatus = (typeof annualRunItems.$inferSelect)['status'];

/**
 * The next pending donor of a running run, locked (`SKIP LOCKED`: two processes working the same run
 * take different donors). Prepared: PostgreSQL planned it anew for every donor, 0.35 ms each.
 */
const claimStatement = preparedPerConnection((db) =>
  db
    .select({
      runId: annualRunItems.runId,
      subscriberId: annualRunItems.subscriberId,
      year: annualRuns.year,
      email: subscribers.email,
    })
    .from(annualRunItems)
    .innerJoin(annualRuns, and(eq(annualRuns.id, annualRunItems.runId), eq(annualRuns.status, 'running')))
    .innerJoin(subscribers, eq(subscribers.id, annualRunItems.subscriberId))
    .where(and(eq(annualRunItems.runId, sql.placeholder('runId')), eq(annualRunItems.status, 'pending')))
    .orderBy(asc(annualRunItems.subscriberId))
    .limit(1)
    .for('update', { of: annualRunItems, skipLocked: true })
    .prepare('annual_run_claim_item'),
);

/** Records what became of one donor of a run. */
const markItemStatement = preparedPerConnection((db) =>
  db
    .update(annualRunItems)
    .set({
      status: sql`${sql.placeholder('status')}`,
      error: sql`${sql.placeholder('error')}`,
      receiptsIssued: sql`${sql.placeholder('receiptsIssued')}`,
      doneAt: sql`now()`,
    })
    .where(
      and(
        eq(annualRunItems.runId, sql.placeholder('runId')),
        eq(annualRunItems.subscriberId, sql.placeholder('subscriberId')),
      ),
    )
    .prepare('annual_run_mark_item'),
);

/** All SQL of the annual receipt runs (docs/decisions/005). */
export function createAnnualRunsRepository() {
  return {
    findRun: async (db: Executor, id: number) => {
      const [run] = await db.select().from(annualRuns).where(eq(annualRuns.id, id));
      return run;
    },

    /** How many donors of run `id` are in each state. */
    countItems: async (db: Executor, id: number): Promise<Map<ItemStatus, number>> => {
      const rows = await db
        .select({ status: annualRunItems.status, n: count() })
        .from(annualRunItems)
        .where(eq(annualRunItems.runId, id))
        .groupBy(annualRunItems.status);
      return new Map(rows.map((row) => [row.status, Number(row.n)]));
    },

    /**
     * What run `id` did beyond the counts by state: receipts newly issued, donors handled whose annual
     * receipt already existed (sent or printed again, no new number), and the reasons of the failed
     * donors with how many each (most frequent first, at most 5).
     */
    summarise: async (db: Executor, id: number) => {
      const [totals] = await queryRows<{ issued: string | number; already_issued: string | number }>(
        db,
        sql`select coalesce(sum(receipts_issued), 0) as issued,
                   count(*) filter (where status in ('emailed', 'to_print') and receipts_issued = 0) as already_issued
              from annual_run_items where run_id = ${id}`,
      );
      const failures = await queryRows<{ reason: string | null; n: string | number }>(
        db,
        sql`select error as reason, count(*) as n from annual_run_items
             where run_id = ${id} and status = 'failed'
             group by error order by count(*) desc, error limit 5`,
      );
      return {
        receiptsIssued: Number(totals?.issued ?? 0),
        alreadyIssued: Number(totals?.already_issued ?? 0),
        failures: failures.map((row) => ({ reason: row.reason ?? 'Unknown error', count: Number(row.n) })),
      };
    },

    /** Ids of the 20 newest runs. */
    recentRunIds: async (db: Executor): Promise<number[]> =>
      (await db.select({ id: annualRuns.id }).from(annualRuns).orderBy(desc(annualRuns.id)).limit(20)).map(
        (row) => row.id,
      ),

    /** The running run of `year`, locked until the end of the transaction, if any. */
    lockRunningOfYear: async (db: Executor, year: number) => {
      const [running] = await db
        .select({ id: annualRuns.id })
        .from(annualRuns)
        .where(and(eq(annualRuns.year, year), eq(annualRuns.status, 'running')))
        .for('update');
      return running;
    },

    /**
     * Creates a run of `year` with one pending item per visible donor whose gifts of that year are not
     * all on single receipts, and counts the donors left out because they are (`skipped_single_receipts`).
     * Resolves with the run's id.
     */
    createRun: async (db: Executor, { year, startedBy }: { year: number; startedBy: string }) => {
      const [run] = await db.insert(annualRuns).values({ year, startedBy }).returning({ id: annualRuns.id });
      if (!run) throw new Error('insert into annual_runs returned no row');
      await db.execute(sql`
        insert into annual_run_items (run_id, subscriber_id)
        select distinct ${run.id}::int, d.subscriber_id
          from donations d
          join subscribers s on s.id = d.subscriber_id and s.hidden = false
          left join receipts r on r.id = d.receipt_id
         where d.donation_date >= ${`${year}-01-01`} and d.donation_date < ${`${year + 1}-01-01`}
           and (d.receipt_id is null or r.kind = 'annual')`);
      await db.execute(sql`
        update annual_runs set skipped_single_receipts = (
          select count(*) from (
            select d.subscriber_id
              from donations d
              join subscribers s on s.id = d.subscriber_id and s.hidden = false
              left join receipts r on r.id = d.receipt_id
             where d.donation_date >= ${`${year}-01-01`} and d.donation_date < ${`${year + 1}-01-01`}
             group by d.subscriber_id
            having bool_and(coalesce(r.kind = 'single', false))) as covered)
         where id = ${run.id}`);
      return run.id;
    },

    /**
     * Claims the next pending donor of running run `runId` for the transaction `db` (`SKIP LOCKED`:
     * two processes working the same run take different donors). Undefined when none is left.
     */
    claimPendingItem: async (db: Executor, runId: number) => {
      const [item] = await claimStatement(db).execute({ runId });
      return item;
    },

    markItem: async (
      db: Executor,
      {
        runId,
        subscriberId,
        status,
        error,
        receiptsIssued = 0,
      }: { runId: number; subscriberId: number; status: ItemStatus; error?: string; receiptsIssued?: number },
    ) => {
      await markItemStatement(db).execute({
        runId,
        subscriberId,
        status,
        error: error ?? null,
        receiptsIssued,
      });
    },

    /** Marks run `runId` done when no donor of it is pending. */
    finishRunIfComplete: async (db: Executor, runId: number) => {
      await db.execute(sql`
        update annual_runs set status = 'done', finished_at = now()
         where id = ${runId} and status = 'running'
           and not exists (select 1 from annual_run_items i where i.run_id = annual_runs.id and i.status = 'pending')`);
    },

    /** Ends run `runId` before its end: its pending donors stay pending, nothing more is sent. */
    cancelRun: async (db: Executor, runId: number) => {
      await db
        .update(annualRuns)
        .set({ status: 'cancelled', finishedAt: sql`now()` })
        .where(and(eq(annualRuns.id, runId), eq(annualRuns.status, 'running')));
    },

    /** The donors of run `id` without email (their receipts go in the print file), by id. */
    donorsToPrint: async (db: Executor, id: number): Promise<number[]> =>
      (
        await db
          .select({ subscriberId: annualRunItems.subscriberId })
          .from(annualRunItems)
          .where(and(eq(annualRunItems.runId, id), eq(annualRunItems.status, 'to_print')))
          .orderBy(asc(annualRunItems.subscriberId))
      ).map((row) => row.subscriberId),
  };
}

export type AnnualRunsRepository = ReturnType<typeof createAnnualRunsRepository>;
