import { JOB_KIND_LABELS } from '@back-office/contract/jobs';
import type { AppModule, ModuleContext } from '../app-module.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import { createImportsRepository } from './imports.repository.ts';
import { importsRoutes } from './imports.routes.ts';
import { createImportsService } from './imports.service.ts';

/** The expiry of old imports looks for work this often (a probe of the small imports table when idle). */
const EXPIRE_INTERVAL_MS = 3_600_000;

/**
 * Imports (contract `imports`): the routes, the `imports.commit` job that writes an import, and the
 * repeating `imports.expire` job that deletes the rows of old ones.
 */
export function createImportsModule(
  { db, clock, timeZone, jobs, nudgeJobs }: ModuleContext,
  needs: { subscribersRepository: SubscribersRepository },
) {
  const service = createImportsService({
    db,
    repository: createImportsRepository(),
    subscribersRepository: needs.subscribersRepository,
    jobs,
    clock,
    timeZone,
    nudge: () => nudgeJobs('imports.commit'),
  });
  return {
    name: 'imports',
    service,
    register: async (app) => {
      await app.register(importsRoutes, { importsService: service });
    },
    jobs: [
      // One import at a time per process: its one transaction holds a connection while it writes.
      { kind: 'imports.commit', handler: service.runJob, maxRunning: 1 },
      {
        kind: 'imports.expire',
        handler: async () => {
          await service.expire();
        },
        repeat: {
          title: JOB_KIND_LABELS['imports.expire'],
          everyMs: EXPIRE_INTERVAL_MS,
          leaseSeconds: 300,
          hasWork: service.hasExpired,
        },
      },
    ],
  } satisfies AppModule & Record<string, unknown>;
}
