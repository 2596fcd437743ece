import type { AppModule, ModuleContext } from '../app-module.ts';
import { createExchangeRatesRepository } from './exchange-rates.repository.ts';
import { exchangeRatesRoutes } from './exchange-rates.routes.ts';
import { createExchangeRatesService } from './exchange-rates.service.ts';

/**
 * Exchange rates (contract `exchange-rates`, docs/decisions/021): the routes, and `service.rateFor`
 * for the modules that convert amounts to euros.
 */
export function createExchangeRatesModule({ db }: ModuleContext) {
  const service = createExchangeRatesService({ db, repository: createExchangeRatesRepository() });
  return {
    name: 'exchange-rates',
    service,
    register: async (app) => {
      await app.register(exchangeRatesRoutes, { exchangeRatesService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
