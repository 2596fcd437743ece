import type { AppModule, ModuleContext } from '../app-module.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import { createImportsRepository } from './imports.repository.ts';
import { importsRoutes } from './imports.routes.ts';
import { createImportsService } from './imports.service.ts';

/** Imports (contract `imports`): the routes and the `imports.commit` job that writes an import. */
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
    // One import at a time per process: its one transaction holds a connection while it writes.
    jobs: [{ kind: 'imports.commit', handler: service.runJob, maxRunning: 1 }],
  } satisfies AppModule & Record<string, unknown>;
}
