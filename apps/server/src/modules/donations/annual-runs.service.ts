import type { AnnualRunProgress } from '@back-office/contract/annual-receipt-runs';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import { createErrorFactory } from '../../lib/errors.ts';
import { renderPdf } from '../../lib/pdf/pdf-renderer.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { EffectiveSettings, SettingsService } from '../settings/settings.service.ts';
import { annualRunItems, annualRuns } from './annual-runs.table.ts';
import { receiptsDocument } from './receipt-document.ts';
import type { ReceiptsRepository } from './receipts.repository.ts';
import type { ReceiptsService } from './receipts.service.ts';

const createRunNotFoundError = createErrorFactory({
  code: 'annual_runs.not_found',
  status: 404,
  title: 'Not Found',
});
const createRunAlreadyRunningError = createErrorFactory({
  code: 'annual_runs.running',
  status: 409,
  title: 'Conflict',
});
const createNothingToPrintError = createErrorFactory({
  code: 'annual_runs.nothing_to_print',
  status: 404,
  title: 'Not Found',
});

/**
 * The annual receipt run: issues and emails the receipts of a year to every donor who
 * has an email, and gathers the others' receipts in one printable PDF. Restart-safe: each donor is
 * done in one transaction that issues the receipt, queues the email and marks the item.
 */
export function createAnnualRunsService({
  db,
  receiptsService,
  receiptsRepository,
  settingsService,
  onMailQueued,
}: {
  db: Database;
  receiptsService: ReceiptsService;
  receiptsRepository: ReceiptsRepository;
  settingsService: SettingsService;
  onMailQueued: () => void;
}) {
  async function progress(id: number): Promise<AnnualRunProgress> {
    const [run] = await db.select().from(annualRuns).where(eq(annualRuns.id, id));
    if (!run) throw createRunNotFoundError(`No annual receipt run has id ${id}.`);
    const counts = await db
      .select({ status: annualRunItems.status, n: count() })
      .from(annualRunItems)
      .where(eq(annualRunItems.runId, id))
      .groupBy(annualRunItems.status);
    const of = (status: string) => Number(counts.find((row) => row.status === status)?.n ?? 0);
    return {
      id: run.id,
      year: run.year,
      status: run.status,
      startedBy: run.startedBy,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      total: counts.reduce((sum, row) => sum + Number(row.n), 0),
      pending: of('pending'),
      emailed: of('emailed'),
      toPrint: of('to_print'),
      failed: of('failed'),
    };
  }

  /** Handles one pending item of a running run, or returns false when none is left. */
  async function processOne(settings: EffectiveSettings, user: AuthUser): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [item] = await queryRows<{ run_id: number; subscriber_id: number; year: number; email: string }>(
        tx,
        sql`select i.run_id, i.subscriber_id, r.year, s.email
              from annual_run_items i
              join annual_runs r on r.id = i.run_id and r.status = 'running'
              join subscribers s on s.id = i.subscriber_id
             where i.status = 'pending'
             order by i.run_id, i.subscriber_id
             limit 1
             for update of i skip locked`,
      );
      if (!item) return false;
      const key = and(
        eq(annualRunItems.runId, item.run_id),
        eq(annualRunItems.subscriberId, item.subscriber_id),
      );
      const hasEmail = item.email.trim() !== '';
      // A savepoint, so a donor that fails is marked failed without undoing the claim.
      try {
        await tx.transaction(async (inner) => {
          const year = Number(item.year);
          if (hasEmail) {
            const file = await receiptsService.annualFileOn(inner, {
              subscriberId: item.subscriber_id,
              year,
              user,
              settings,
            });
            await receiptsService.queueReceiptEmail(inner, {
              file,
              subject: `Reçu fiscal ${year}`,
              user,
              settings,
            });
          } else {
            // Rendered with the others in the print file; issuing the number is all it needs now.
            await receiptsService.issueAnnualReceipts(inner, item.subscriber_id, year, user);
          }
          await inner
            .update(annualRunItems)
            .set({ status: hasEmail ? 'emailed' : 'to_print', doneAt: sql`now()` })
            .where(key);
        });
      } catch (error) {
        await tx
          .update(annualRunItems)
          .set({
            status: 'failed',
            error: error instanceof Error ? error.message : String(error),
            doneAt: sql`now()`,
          })
          .where(key);
      }
      return true;
    });
  }

  return {
    progress,

    /** Runs, newest first, with their progress. */
    list: async () => {
      const runs = await db
        .select({ id: annualRuns.id })
        .from(annualRuns)
        .orderBy(desc(annualRuns.id))
        .limit(20);
      return Promise.all(runs.map((run) => progress(run.id)));
    },

    /**
     * Starts a run for `year` over every visible donor whose gifts of that year are not all on single
     * receipts. @throws 409 `annual_runs.running` while a run of that year is under way.
     */
    start: async (year: number, user: AuthUser) => {
      const id = await db.transaction(async (tx) => {
        const [running] = await tx
          .select({ id: annualRuns.id })
          .from(annualRuns)
          .where(and(eq(annualRuns.year, year), eq(annualRuns.status, 'running')))
          .for('update');
        if (running)
          throw createRunAlreadyRunningError(`The annual receipts of ${year} are already being sent.`);
        const [run] = await tx.insert(annualRuns).values({ year, startedBy: user.fullName }).returning();
        if (!run) throw new Error('insert into annual_runs returned no row');
        await tx.execute(sql`
          insert into annual_run_items (run_id, subscriber_id)
          select distinct ${run.id}::int, d.subscriber_id
            from donations d
            join subscribers s on s.id = d.subscriber_id and s.hidden = false
            left join receipts r on r.id = d.receipt_id
           where d.donation_date >= ${`${year}-01-01`} and d.donation_date < ${`${year + 1}-01-01`}
             and (d.receipt_id is null or r.kind = 'annual')`);
        return run.id;
      });
      return progress(id);
    },

    /**
     * Works through pending items until none is left or `shouldStop()`; marks finished runs done.
     * Resolves with how many donors were handled.
     */
    work: async (shouldStop: () => boolean) => {
      const [running] = await db
        .select()
        .from(annualRuns)
        .where(eq(annualRuns.status, 'running'))
        .orderBy(asc(annualRuns.id))
        .limit(1);
      if (!running) return 0;
      const settings = await settingsService.get();
      const user = {
        id: 0,
        email: '',
        fullName: running.startedBy,
        role: 'Administrator' as const,
        sessionId: '',
      };
      let handled = 0;
      while (!shouldStop() && (await processOne(settings, user))) {
        handled += 1;
        if (handled % 20 === 0) onMailQueued();
      }
      if (handled > 0) onMailQueued();
      if (!shouldStop()) {
        await db.execute(sql`
          update annual_runs set status = 'done', finished_at = now()
           where status = 'running'
             and not exists (select 1 from annual_run_items i where i.run_id = annual_runs.id and i.status = 'pending')`);
      }
      return handled;
    },

    /** One PDF of the receipts of the run's donors without email, for printing. @throws 404 */
    printFile: async (id: number) => {
      const run = await progress(id);
      const settings = await settingsService.get();
      const items = await db
        .select({ subscriberId: annualRunItems.subscriberId })
        .from(annualRunItems)
        .where(and(eq(annualRunItems.runId, id), eq(annualRunItems.status, 'to_print')))
        .orderBy(asc(annualRunItems.subscriberId));
      const data = [];
      for (const item of items) {
        for (const receipt of await receiptsRepository.listAnnualReceipts(db, item.subscriberId, run.year)) {
          data.push(await receiptsRepository.loadDocumentData(db, receipt));
        }
      }
      if (data.length === 0)
        throw createNothingToPrintError('Every donor of this run has an email address: nothing to print.');
      return {
        filename: `annual-receipts-${run.year}-to-print.pdf`,
        pdf: await renderPdf(receiptsDocument(data, settings)),
      };
    },
  };
}

export type AnnualRunsService = ReturnType<typeof createAnnualRunsService>;
