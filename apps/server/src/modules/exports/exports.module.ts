import type { AppModule, ModuleContext } from '../app-module.ts';
import { createExportsRepository } from './exports.repository.ts';
import { exportsRoutes } from './exports.routes.ts';
import { createExportsService, type ExportSources } from './exports.service.ts';

/** Purge of old export files: this often, when there is one to purge. */
const EXPORT_PURGE_INTERVAL_MS = 3_600_000;

/**
 * Large exports (contract `exports`): the routes, the `exports.file` job that writes a file from one
 * of the `sources` of the other modules, and the hourly `exports.purge`.
 */
export function createExportsModule(
  { db, clock, jobs, nudgeJobs }: ModuleContext,
  needs: { sources: ExportSources },
) {
  const service = createExportsService({
    db,
    repository: createExportsRepository(),
    jobs,
    sources: needs.sources,
    clock,
    nudge: () => nudgeJobs('exports.file'),
  });
  return {
    name: 'exports',
    register: async (app) => {
      await app.register(exportsRoutes, { exportsService: service });
    },
    jobs: [
      // One export at a time per process: an export keeps a core busy for a minute at a million rows,
      // and the mail outbox and the annual run must not wait behind several.
      { kind: 'exports.file', handler: service.runJob, maxRunning: 1 },
      {
        kind: 'exports.purge',
        handler: async () => {
          await service.purge();
        },
        repeat: {
          title: 'Purge of old export files',
          everyMs: EXPORT_PURGE_INTERVAL_MS,
          leaseSeconds: 300,
          hasWork: service.hasPurgeable,
        },
      },
    ],
  } satisfies AppModule & Record<string, unknown>;
}
