import type { AppModule, ModuleContext } from '../app-module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { createPersonalDataRepository } from './personal-data.repository.ts';
import { personalDataRoutes } from './personal-data.routes.ts';
import {
  createPersonalDataService,
  type DonationsPersonalData,
  type SalesPersonalData,
} from './personal-data.service.ts';

/** The purge of documents past retention looks for work this often (an index probe when idle). */
const PURGE_INTERVAL_MS = 3_600_000;

/**
 * Personal-data rights (GDPR art. 15, 17, 20; Swiss nFADP; docs/decisions/019): the archive and
 * anonymisation routes, and the repeating `personal-data.purge` job.
 */
export function createPersonalDataModule(
  { db, clock, timeZone }: ModuleContext,
  needs: {
    audit: AuditService;
    subscribersService: SubscribersService;
    subscribersRepository: SubscribersRepository;
    donations: DonationsPersonalData;
    sales: SalesPersonalData;
  },
) {
  const service = createPersonalDataService({
    db,
    clock,
    timeZone,
    repository: createPersonalDataRepository(),
    ...needs,
  });
  return {
    name: 'personal-data',
    register: async (app) => {
      await app.register(personalDataRoutes, { personalDataService: service });
    },
    jobs: [
      {
        kind: 'personal-data.purge',
        handler: async () => {
          await service.purge();
        },
        repeat: {
          title: 'Purge of personal data past retention',
          everyMs: PURGE_INTERVAL_MS,
          leaseSeconds: 300,
          hasWork: service.hasPurgeable,
        },
      },
    ],
  } satisfies AppModule & Record<string, unknown>;
}
