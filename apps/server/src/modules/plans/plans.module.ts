import type { AppModule, ModuleContext } from '../app-module.ts';
import { createMandatesRepository } from '../mandates/mandates.repository.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { createPlansRepository } from './plans.repository.ts';
import { plansRoutes } from './plans.routes.ts';
import { createPlansService } from './plans.service.ts';

/**
 * Recurring gifts by SEPA direct debit (contract `plans`, docs/decisions/028): the routes to list,
 * add and change (pause, resume, end) a subscriber's plans. The collections read the plans with
 * `installmentDates` (plans.schedule.ts).
 */
export function createPlansModule(
  { db }: ModuleContext,
  needs: { subscribersRepository: SubscribersRepository; subscribersService: SubscribersService },
) {
  const service = createPlansService({
    db,
    repository: createPlansRepository(),
    mandatesRepository: createMandatesRepository(),
    subscribersRepository: needs.subscribersRepository,
    subscribersService: needs.subscribersService,
  });
  return {
    name: 'plans',
    service,
    register: async (app) => {
      await app.register(plansRoutes, { plansService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
