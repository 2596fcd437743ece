import { JOB_KIND_LABELS } from '@back-office/contract/jobs';
import type { AppModule, ModuleContext } from '../app-module.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { createSubscriberEmailRepository } from './subscriber-email.repository.ts';
import { subscriberEmailRoutes } from './subscriber-email.routes.ts';
import { createSubscriberEmailService } from './subscriber-email.service.ts';
import { createUnsubscribeTokens } from './subscriber-email-token.ts';
import { createSubscriberExportRepository } from './subscriber-export.repository.ts';
import { subscriberExportRoutes } from './subscriber-export.routes.ts';
import { createSubscriberExportService } from './subscriber-export.service.ts';
import { createSubscriberInactivityRepository } from './subscriber-inactivity.repository.ts';
import { subscriberInactivityRoutes } from './subscriber-inactivity.routes.ts';
import { createSubscriberInactivityService } from './subscriber-inactivity.service.ts';
import { compactSubscriberNameCounts, hasUnfoldedNameCounts } from './subscriber-name-counts.ts';
import { createSubscriberRumRepository } from './subscriber-rum.repository.ts';
import { subscriberRumRoutes } from './subscriber-rum.routes.ts';
import { createSubscriberRumService } from './subscriber-rum.service.ts';
import { createSubscribersRepository } from './subscribers.repository.ts';
import { subscribersRoutes } from './subscribers.routes.ts';
import { createSubscribersService } from './subscribers.service.ts';

/**
 * How often the delta rows of the counts of last names are folded (each name's rows into one): a name
 * then has a handful of rows to sum, whatever the day's saves and imports wrote.
 */
export const NAME_COUNTS_COMPACTION_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The subscriber register (part 2 §2.1-2.3, §7 Subscribers): search, record, history, export, RUM
 * letter and emails. `service` and `emailService` serve the donations and sales modules.
 */
export function createSubscribersModule(
  { db, readDb, clock, config, timeZone, onMailQueued }: ModuleContext,
  needs: { mailRepository: MailRepository; settingsService: SettingsService; authRepository: AuthRepository },
) {
  const repository = createSubscribersRepository({ timeZone, countBudgetMs: config.searchCountBudgetMs });
  const service = createSubscribersService({
    db,
    repository,
    mailRepository: needs.mailRepository,
    clock,
    timeZone,
  });
  const exportService = createSubscriberExportService({
    db: readDb,
    timeZone,
    repository: createSubscriberExportRepository({ timeZone }),
  });
  const inactivityService = createSubscriberInactivityService({
    db,
    repository: createSubscriberInactivityRepository(),
    clock,
    timeZone,
  });
  const rumService = createSubscriberRumService({
    db,
    repository: createSubscriberRumRepository(),
    subscribersRepository: repository,
    subscribersService: service,
    settingsService: needs.settingsService,
    clock,
  });
  const emailService = createSubscriberEmailService({
    db,
    repository: createSubscriberEmailRepository(),
    subscribersRepository: repository,
    subscribersService: service,
    settingsService: needs.settingsService,
    mailRepository: needs.mailRepository,
    unsubscribeTokens: createUnsubscribeTokens({ db, authRepository: needs.authRepository }),
    publicUrl: config.publicUrl,
    mailFrom: config.mailFrom,
    onMailQueued,
  });
  return {
    name: 'subscribers',
    service,
    repository,
    emailService,
    exportSource: exportService,
    register: async (app) => {
      await app.register(subscribersRoutes, { subscribersService: service });
      await app.register(subscriberExportRoutes, {
        subscriberExportService: exportService,
        inlineRowLimit: config.exportInlineRowLimit,
      });
      await app.register(subscriberRumRoutes, { subscriberRumService: rumService });
      await app.register(subscriberInactivityRoutes, { subscriberInactivityService: inactivityService });
      await app.register(subscriberEmailRoutes, { subscriberEmailService: emailService });
    },
    jobs: [
      {
        kind: 'subscribers.name-counts',
        handler: async () => {
          await compactSubscriberNameCounts(db);
        },
        repeat: {
          title: JOB_KIND_LABELS['subscribers.name-counts'],
          everyMs: NAME_COUNTS_COMPACTION_INTERVAL_MS,
          leaseSeconds: 300,
          hasWork: () => hasUnfoldedNameCounts(db),
        },
      },
    ],
  } satisfies AppModule & Record<string, unknown>;
}
