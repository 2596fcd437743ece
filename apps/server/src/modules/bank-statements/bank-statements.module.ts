import type { AppModule, ModuleContext } from '../app-module.ts';
import { createDonationsRepository } from '../donations/donations.repository.ts';
import { createDonationWrites } from '../donations/donations.service.ts';
import type { SalesService } from '../sales/sales.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { createBankStatementsRepository } from './bank-statements.repository.ts';
import { bankStatementsRoutes } from './bank-statements.routes.ts';
import { createBankStatementsService } from './bank-statements.service.ts';

/** Bank statements (contract `bank-statements`, docs/decisions/033): the import and the review queue. */
export function createBankStatementsModule(
  { db, clock }: ModuleContext,
  needs: {
    recordPaymentOn: SalesService['recordPaymentOn'];
    recordPaymentsOn: SalesService['recordPaymentsOn'];
    subscribersService: SubscribersService;
  },
) {
  const service = createBankStatementsService({
    db,
    repository: createBankStatementsRepository(),
    recordPaymentOn: needs.recordPaymentOn,
    recordPaymentsOn: needs.recordPaymentsOn,
    donationWrites: createDonationWrites({
      repository: createDonationsRepository(),
      subscribersService: needs.subscribersService,
    }),
    clock,
  });
  return {
    name: 'bank-statements',
    register: async (app) => {
      await app.register(bankStatementsRoutes, { bankStatementsService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
