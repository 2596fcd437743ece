import type { AppModule, ModuleContext } from '../app-module.ts';
import { createDonationsRepository } from '../donations/donations.repository.ts';
import { createDonationWrites } from '../donations/donations.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import { createMandatesRepository } from '../mandates/mandates.repository.ts';
import type { MandatesService } from '../mandates/mandates.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { createCollectionsRepository } from './collections.repository.ts';
import { collectionsRoutes } from './collections.routes.ts';
import { createCollectionsService } from './collections.service.ts';

/** SEPA direct-debit collections (contract `collections`, docs/decisions/029): the routes. */
export function createCollectionsModule(
  { db, clock, config, timeZone, onMailQueued }: ModuleContext,
  needs: {
    settingsService: SettingsService;
    subscribersService: SubscribersService;
    mailRepository: MailRepository;
    mandatesService: MandatesService;
  },
) {
  const service = createCollectionsService({
    db,
    repository: createCollectionsRepository(),
    mandatesRepository: createMandatesRepository(),
    mandatesService: needs.mandatesService,
    subscribersService: needs.subscribersService,
    donationWrites: createDonationWrites({
      repository: createDonationsRepository({ countBudgetMs: config.searchCountBudgetMs }),
      subscribersService: needs.subscribersService,
    }),
    settingsService: needs.settingsService,
    mailRepository: needs.mailRepository,
    onMailQueued,
    clock,
    timeZone,
  });
  return {
    name: 'collections',
    service,
    register: async (app) => {
      await app.register(collectionsRoutes, { collectionsService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
