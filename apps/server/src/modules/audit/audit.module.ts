import type { AppModule, ModuleContext } from '../app-module.ts';
import { createAuditRepository } from './audit.repository.ts';
import { auditRoutes } from './audit.routes.ts';
import { createAuditService } from './audit.service.ts';

/** The audit trail (docs/security.md): `service.record(tx, …)` for the other modules, and the Audit screen's call. */
export function createAuditModule({ db, clock, timeZone }: ModuleContext) {
  const service = createAuditService({ db, repository: createAuditRepository({ timeZone }), clock });
  return {
    name: 'audit',
    service,
    register: async (app) => {
      await app.register(auditRoutes, { auditService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
