import { JOB_KIND_LABELS } from '@back-office/contract/jobs';
import type { AppModule, ModuleContext } from '../app-module.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { createMandatesRepository } from './mandates.repository.ts';
import { mandatesRoutes } from './mandates.routes.ts';
import { createMandatesService } from './mandates.service.ts';

/** The expiry runs again this long after a pass that expired mandates: expiry is by calendar day. */
const EXPIRE_INTERVAL_MS = 24 * 3_600_000;

/**
 * SEPA direct-debit mandates (contract `mandates`, docs/decisions/027): the routes, and the repeating
 * `mandates.expire` job that expires the mandates unused for 36 months (while none is due, its cheap
 * `hasWork` probe keeps it from being claimed).
 */
export function createMandatesModule(
  { db, clock, timeZone }: ModuleContext,
  needs: { subscribersRepository: SubscribersRepository; subscribersService: SubscribersService },
) {
  const service = createMandatesService({
    db,
    repository: createMandatesRepository(),
    subscribersRepository: needs.subscribersRepository,
    subscribersService: needs.subscribersService,
    clock,
    timeZone,
  });
  return {
    name: 'mandates',
    service,
    register: async (app) => {
      await app.register(mandatesRoutes, { mandatesService: service });
    },
    jobs: [
      {
        kind: 'mandates.expire',
        handler: async () => {
          await service.expire();
        },
        repeat: {
          title: JOB_KIND_LABELS['mandates.expire'],
          everyMs: EXPIRE_INTERVAL_MS,
          leaseSeconds: 300,
          hasWork: service.hasExpired,
        },
      },
    ],
  } satisfies AppModule & Record<string, unknown>;
}
