import { HTTP_LIMITS } from '../../http/limits.ts';
import type { AppModule, ModuleContext } from '../app-module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createSettingsRepository } from './settings.repository.ts';
import { settingsRoutes } from './settings.routes.ts';
import { createSettingsService } from './settings.service.ts';

/** The organisation's settings (docs/decisions/005): `service.get()` for the documents of other modules. */
export function createSettingsModule({ db, timeZone }: ModuleContext, needs: { audit: AuditService }) {
  const service = createSettingsService({
    db,
    timeZone,
    repository: createSettingsRepository(),
    audit: needs.audit,
  });
  return {
    name: 'settings',
    service,
    register: async (app) => {
      await app.register(settingsRoutes, {
        settingsService: service,
        bodyLimit: HTTP_LIMITS.uploadBodyLimitBytes,
      });
    },
  } satisfies AppModule & Record<string, unknown>;
}
