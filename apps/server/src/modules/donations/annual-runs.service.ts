import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { AnnualRunProgress } from '@back-office/contract/annual-receipt-runs';
import type { Database, Executor } from '../../db/client.ts';
import { createErrorFactory } from '../../lib/errors.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { JobsRepository } from '../jobs/jobs.repository.ts';
import type { JobContext } from '../jobs/jobs.runner.ts';
import type { JobRow } from '../jobs/jobs.table.ts';
import type { EffectiveSettings, SettingsService } from '../settings/settings.service.ts';
import type { AnnualRunsRepository } from './annual-runs.repository.ts';
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
 * The annual receipt run (docs/decisions/005): issues and emails the receipts of a year to every donor
 * who has an email, and gathers the others' receipts in one printable PDF. It runs as a background job
 * (`receipts.annual-run`, docs/decisions/013). Restart-safe: each donor is done in one transaction that
 * issues the receipt, queues the email and marks the item.
 */
export function createAnnualRunsService({
  db,
  repository,
  jobs,
  receiptsService,
  receiptsRepository,
  settingsService,
  onMailQueued,
}: {
  db: Database;
  repository: AnnualRunsRepository;
  jobs: Pick<JobsRepository, 'enqueue'>;
  receiptsService: ReceiptsService;
  receiptsRepository: ReceiptsRepository;
  settingsService: SettingsService;
  onMailQueued: () => void;
}) {
  async function progress(id: number): Promise<AnnualRunProgress> {
    const run = await repository.findRun(db, id);
    if (!run) throw createRunNotFoundError(`No annual receipt run has id ${id}.`);
    const counts = await repository.countItems(db, id);
    const summary = await repository.summarise(db, id);
    return {
      id: run.id,
      year: run.year,
      status: run.status,
      startedBy: run.startedBy,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      total: [...counts.values()].reduce((sum, n) => sum + n, 0),
      pending: counts.get('pending') ?? 0,
      emailed: counts.get('emailed') ?? 0,
      toPrint: counts.get('to_print') ?? 0,
      failed: counts.get('failed') ?? 0,
      ...summary,
      skippedSingleReceipts: run.skippedSingleReceipts,
    };
  }

  /** Handles one pending donor of run `runId`, or returns false when none is left. */
  async function processOne(runId: number, settings: EffectiveSettings, user: AuthUser): Promise<boolean> {
    return db.transaction(async (tx) => {
      const item = await repository.claimPendingItem(tx, runId);
      if (!item) return false;
      const hasEmail = item.email.trim() !== '';
      // A savepoint, so a donor that fails is marked failed without undoing the claim.
      try {
        await tx.transaction(async (inner) => {
          let receiptsIssued: number;
          if (hasEmail) {
            const file = await receiptsService.annualFileOn(inner, {
              subscriberId: item.subscriberId,
              year: item.year,
              user,
              settings,
            });
            await receiptsService.queueReceiptEmail(inner, { file, kind: 'annual', user, settings });
            receiptsIssued = file.issued;
          } else {
            // Rendered with the others in the print file; issuing the number is all it needs now.
            const issued = await receiptsService.issueAnnualReceipts(inner, {
              subscriberId: item.subscriberId,
              year: item.year,
              user,
              settings,
            });
            receiptsIssued = issued.issued;
          }
          await repository.markItem(inner, {
            ...item,
            status: hasEmail ? 'emailed' : 'to_print',
            receiptsIssued,
          });
        });
      } catch (error) {
        await repository.markItem(tx, {
          ...item,
          status: 'failed',
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return true;
    });
  }

  return {
    progress,

    /** Runs, newest first, with their progress. */
    list: async () => Promise.all((await repository.recentRunIds(db)).map((id) => progress(id))),

    /**
     * Starts a run for `year` over every visible donor whose gifts of that year are not all on single
     * receipts, and queues its job in the same transaction. @throws 409 `annual_runs.running` while a
     * run of that year is under way.
     */
    start: async (year: number, user: AuthUser) => {
      const id = await db.transaction(async (tx) => {
        if (await repository.lockRunningOfYear(tx, year))
          throw createRunAlreadyRunningError(`The annual receipts of ${year} are already being sent.`);
        const runId = await repository.createRun(tx, { year, startedBy: user.fullName });
        await jobs.enqueue(tx, {
          kind: 'receipts.annual-run',
          title: `Annual receipts ${year}`,
          payload: { runId },
          singletonKey: `receipts.annual-run:${runId}`,
          startedBy: user.fullName,
        });
        return runId;
      });
      return progress(id);
    },

    /**
     * The handler of `receipts.annual-run` jobs (payload `{ runId }`): works through the run's pending
     * donors until none is left (the run is then done) or it is told to stop. Stopped by a cancel, the
     * run is `cancelled` and its pending donors stay undone; stopped by a shutdown, it carries on later.
     */
    runJob: async ({
      job,
      shouldStop,
      cancelRequested,
      progress: report,
    }: JobContext): Promise<undefined | 'stopped'> => {
      const runId = Number(job.payload.runId);
      const run = await progress(runId);
      if (run.status !== 'running') return;
      const settings = await settingsService.get();
      const user = {
        id: 0,
        email: '',
        fullName: run.startedBy,
        role: 'Administrator' as const,
        sessionId: '',
      };
      let done = run.total - run.pending;
      report(done, run.total);
      let handled = 0;
      while (!shouldStop() && (await processOne(runId, settings, user))) {
        // On the embedded database a query never leaves the event loop: without this, requests (and
        // the job's lease renewals) would wait for the whole run.
        await setImmediatePromise();
        handled += 1;
        done += 1;
        report(done, run.total);
        if (handled % 20 === 0) onMailQueued();
      }
      if (handled > 0) onMailQueued();
      if (shouldStop()) {
        if (cancelRequested()) await repository.cancelRun(db, runId);
        return 'stopped';
      }
      await repository.finishRunIfComplete(db, runId);
    },

    /** Marks the run of a job cancelled before it started (in the cancelling transaction). */
    cancelQueuedJob: async (tx: Executor, job: JobRow) => {
      const runId = Number(job.payload.runId);
      if (Number.isInteger(runId)) await repository.cancelRun(tx, runId);
    },

    /** One PDF of the receipts of the run's donors without email, for printing. @throws 404 */
    printFile: async (id: number) => {
      const run = await progress(id);
      const settings = await settingsService.get();
      const receipts = [];
      for (const subscriberId of await repository.donorsToPrint(db, id)) {
        receipts.push(...(await receiptsRepository.listAnnualReceipts(db, subscriberId, run.year)));
      }
      if (receipts.length === 0)
        throw createNothingToPrintError('Every donor of this run has an email address: nothing to print.');
      const { pdf } = await receiptsService.renderOn(db, receipts, settings);
      return { filename: `annual-receipts-${run.year}-to-print.pdf`, pdf };
    },
  };
}

export type AnnualRunsService = ReturnType<typeof createAnnualRunsService>;
