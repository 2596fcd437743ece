import type { AppModule, ModuleContext } from '../app-module.ts';
import type { ExchangeRatesService } from '../exchange-rates/exchange-rates.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { createAnnualRunsRepository } from './annual-runs.repository.ts';
import { annualRunsRoutes } from './annual-runs.routes.ts';
import { createAnnualRunsService } from './annual-runs.service.ts';
import { createDonationsRepository } from './donations.repository.ts';
import { donationsRoutes } from './donations.routes.ts';
import { createDonationsService } from './donations.service.ts';
import { createDonationsExportRepository } from './donations-export.repository.ts';
import { donationsExportRoutes } from './donations-export.routes.ts';
import { createDonationsExportService } from './donations-export.service.ts';
import { createReceiptStatementRepository } from './receipt-statement.repository.ts';
import { receiptStatementRoutes } from './receipt-statement.routes.ts';
import { createReceiptStatementService } from './receipt-statement.service.ts';
import { createReceiptsRepository } from './receipts.repository.ts';
import { receiptsRoutes } from './receipts.routes.ts';
import { createReceiptsService } from './receipts.service.ts';

/**
 * Donations and their receipts (part 2 §2.4, §7 Donations), with the annual receipt run as a
 * background job (`receipts.annual-run`).
 */
export function createDonationsModule(
  { db, readDb, clock, config, timeZone, jobs, nudgeJobs, onMailQueued }: ModuleContext,
  needs: {
    subscribersService: SubscribersService;
    settingsService: SettingsService;
    exchangeRatesService: ExchangeRatesService;
    mailRepository: MailRepository;
  },
) {
  const donationsRepository = createDonationsRepository({ countBudgetMs: config.searchCountBudgetMs });
  const donationsService = createDonationsService({
    db,
    clock,
    timeZone,
    repository: donationsRepository,
    subscribersService: needs.subscribersService,
  });
  const receiptsRepository = createReceiptsRepository();
  const receiptsService = createReceiptsService({
    db,
    clock,
    repository: receiptsRepository,
    mailRepository: needs.mailRepository,
    settingsService: needs.settingsService,
    subscribersService: needs.subscribersService,
    exchangeRatesService: needs.exchangeRatesService,
    onMailQueued,
    publicUrl: config.publicUrl,
  });
  const receiptStatementService = createReceiptStatementService({
    db,
    clock,
    repository: createReceiptStatementRepository(),
    settingsService: needs.settingsService,
    exchangeRatesService: needs.exchangeRatesService,
  });
  const annualRunsService = createAnnualRunsService({
    db,
    repository: createAnnualRunsRepository(),
    jobs,
    receiptsService,
    receiptsRepository,
    settingsService: needs.settingsService,
    onMailQueued,
  });
  const exportSource = createDonationsExportService({
    db: readDb,
    repository: createDonationsExportRepository(),
    timeZone,
  });
  return {
    name: 'donations',
    exportSource,
    /** What personal-data rights need of donations and receipts (docs/decisions/019). */
    personalData: {
      receiptsOf: receiptsService.receiptsOf,
      keepDonorAsIssued: receiptsRepository.keepDonorAsIssued,
      clearDonationNotes: donationsRepository.clearNotesOf,
      forgetReceiptDonors: receiptsRepository.forgetDonors,
      hasReceiptDonorsToForget: receiptsRepository.hasDonorsToForget,
    },
    register: async (app) => {
      await app.register(donationsExportRoutes, {
        exportSource,
        inlineRowLimit: config.exportInlineRowLimit,
      });
      await app.register(donationsRoutes, { donationsService });
      await app.register(receiptsRoutes, { receiptsService });
      await app.register(receiptStatementRoutes, { receiptStatementService });
      await app.register(annualRunsRoutes, {
        annualRunsService,
        onStarted: () => nudgeJobs('receipts.annual-run'),
      });
    },
    jobs: [{ kind: 'receipts.annual-run', handler: annualRunsService.runJob }],
    queuedCancelHooks: { 'receipts.annual-run': annualRunsService.cancelQueuedJob },
  } satisfies AppModule & Record<string, unknown>;
}
