import type { AppModule, ModuleContext } from '../app-module.ts';
import { createDashboardRepository } from './dashboard.repository.ts';
import { dashboardRoutes } from './dashboard.routes.ts';

/** The dashboard's figures (part 1 §2 Dashboard, §7 Dashboard): read-only joins over other modules' tables. */
export function createDashboardModule({ readDb: db, clock, timeZone }: ModuleContext) {
  return {
    name: 'dashboard',
    register: async (app) => {
      await app.register(dashboardRoutes, {
        db,
        repository: createDashboardRepository(),
        clock,
        timeZone,
      });
    },
  } satisfies AppModule & Record<string, unknown>;
}
