import type { AppModule, ModuleContext } from '../app-module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createReferenceListsRepository } from './reference-lists.repository.ts';
import { referenceListsRoutes } from './reference-lists.routes.ts';
import { createReferenceListsService } from './reference-lists.service.ts';

/** The reference-data lists (part 1 §2 Reference-data lists, §7 Reference data). */
export function createReferenceListsModule({ db }: ModuleContext, needs: { audit: AuditService }) {
  const service = createReferenceListsService({
    db,
    repository: createReferenceListsRepository(),
    audit: needs.audit,
  });
  return {
    name: 'reference-lists',
    register: async (app) => {
      await app.register(referenceListsRoutes, { referenceListsService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
