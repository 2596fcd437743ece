import type { AppModule, ModuleContext } from '../app-module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createProductsRepository } from './products.repository.ts';
import { productsRoutes } from './products.routes.ts';
import { createProductsService } from './products.service.ts';
import { createStockMovementsRepository } from './stock-movements.repository.ts';

/** The product catalogue and its stock ledger (part 1 §2 Products, §7 Products). */
export function createProductsModule({ db, clock, timeZone }: ModuleContext, needs: { audit: AuditService }) {
  const service = createProductsService({
    db,
    repository: createProductsRepository(),
    stock: createStockMovementsRepository(),
    audit: needs.audit,
  });
  return {
    name: 'products',
    register: async (app) => {
      await app.register(productsRoutes, { productsService: service, clock, timeZone });
    },
  } satisfies AppModule & Record<string, unknown>;
}
