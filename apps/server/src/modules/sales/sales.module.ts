import type { AppModule, ModuleContext } from '../app-module.ts';
import { createDonationsRepository } from '../donations/donations.repository.ts';
import { createDonationWrites } from '../donations/donations.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { SubscriberEmailService } from '../subscribers/subscriber-email.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { createCreditNotesRepository } from './credit-notes.repository.ts';
import { creditNotesRoutes } from './credit-notes.routes.ts';
import { createCreditNotesService } from './credit-notes.service.ts';
import { createSalesRepository } from './sales.repository.ts';
import { salesRoutes } from './sales.routes.ts';
import { createSalesService } from './sales.service.ts';
import { salesEmailRoutes } from './sales-email.routes.ts';
import { createSalesExportRepository } from './sales-export.repository.ts';
import { salesExportRoutes } from './sales-export.routes.ts';

/** Sales, invoices and credit notes (part 2 §2.5-2.6, §7 Sales). */
export function createSalesModule(
  { db, readDb, clock, timeZone, onMailQueued }: ModuleContext,
  needs: {
    mailRepository: MailRepository;
    subscribersService: SubscribersService;
    settingsService: SettingsService;
    subscriberEmailService: SubscriberEmailService;
  },
) {
  const repository = createSalesRepository({ timeZone });
  const creditNotesRepository = createCreditNotesRepository();
  // A sale's gift is a donation of the buyer (part 2 §2.6), written by the donations' own code path.
  const donations = createDonationWrites({
    repository: createDonationsRepository(),
    subscribersService: needs.subscribersService,
  });
  const salesService = createSalesService({
    db,
    clock,
    timeZone,
    repository,
    subscribersService: needs.subscribersService,
    settingsService: needs.settingsService,
    donations,
    creditNotes: creditNotesRepository,
    mailRepository: needs.mailRepository,
    onMailQueued,
  });
  const creditNotesService = createCreditNotesService({
    db,
    salesRepository: repository,
    repository: creditNotesRepository,
    subscribersService: needs.subscribersService,
    settingsService: needs.settingsService,
    donations,
  });
  return {
    name: 'sales',
    /** What personal-data rights need of sales and invoices (docs/decisions/019). */
    /** Where bank statements record the payments of invoices (docs/decisions/033). */
    payments: {
      recordPaymentOn: salesService.recordPaymentOn,
      recordPaymentsOn: salesService.recordPaymentsOn,
    },
    personalData: {
      salesOf: salesService.salesOf,
      forgetBuyers: repository.forgetBuyers,
      hasBuyersToForget: repository.hasBuyersToForget,
    },
    register: async (app) => {
      await app.register(salesExportRoutes, {
        db: readDb,
        repository: createSalesExportRepository({ timeZone, clock }),
      });
      await app.register(salesRoutes, { salesService });
      await app.register(creditNotesRoutes, { creditNotesService });
      await app.register(salesEmailRoutes, {
        subscriberEmailService: needs.subscriberEmailService,
        timeZone,
      });
    },
  } satisfies AppModule & Record<string, unknown>;
}
