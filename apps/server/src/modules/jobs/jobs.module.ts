import type { AppModule, ModuleContext } from '../app-module.ts';
import type { JobsRepository } from './jobs.repository.ts';
import { jobsRoutes } from './jobs.routes.ts';
import { createJobsService, type QueuedCancelHooks } from './jobs.service.ts';

/** The Jobs screen's calls (docs/decisions/013): list and cancel. The runner itself is built by `buildApp`. */
export function createJobsModule(
  { db }: ModuleContext,
  needs: { repository: JobsRepository; queuedCancelHooks: QueuedCancelHooks },
) {
  const service = createJobsService({ db, ...needs });
  return {
    name: 'jobs',
    register: async (app) => {
      await app.register(jobsRoutes, { jobsService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
