import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import type { AppModule, ModuleContext } from '../app-module.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import { createDuplicatesRepository } from './duplicates.repository.ts';
import { duplicatesRoutes } from './duplicates.routes.ts';
import { createDuplicatesService } from './duplicates.service.ts';

/** Duplicates and merge (contract `duplicates`): the routes and the `duplicates.scan` job. */
export function createDuplicatesModule(
  { db, clock, jobs, nudgeJobs }: ModuleContext,
  needs: { subscribersRepository: SubscribersRepository },
) {
  const service = createDuplicatesService({
    db,
    repository: createDuplicatesRepository(),
    subscribersRepository: needs.subscribersRepository,
    jobs,
    clock,
    nudge: () => nudgeJobs('duplicates.scan'),
  });
  const scanning = async () =>
    (
      await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from jobs where kind = 'duplicates.scan' and state in ('queued', 'running')`,
      )
    )[0]?.n !== 0;
  return {
    name: 'duplicates',
    service,
    register: async (app) => {
      await app.register(duplicatesRoutes, { duplicatesService: service, scanning });
    },
    jobs: [{ kind: 'duplicates.scan', handler: service.runScan, maxRunning: 1 }],
  } satisfies AppModule & Record<string, unknown>;
}
