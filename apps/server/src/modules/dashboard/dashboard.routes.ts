import { lowStockSchema, subscribersByCountrySchema } from '@back-office/contract/dashboard';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import type { DashboardRepository } from './dashboard.repository.ts';

/** `GET /api/dash/prods` and `GET /api/dash/subs` (part 1 §7 Dashboard). Any signed-in user. */
export const dashboardRoutes: FastifyPluginAsyncZod<{
  db: Database;
  repository: DashboardRepository;
}> = async (app, { db, repository }) => {
  app.get(
    '/api/dash/prods',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['dashboard'], summary: 'Products low in stock', response: { 200: lowStockSchema } },
    },
    async () => ({ keyedData: await repository.listLowStockProducts(db) }),
  );

  app.get(
    '/api/dash/subs',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['dashboard'],
        summary: 'Active subscribers per country',
        response: { 200: subscribersByCountrySchema },
      },
    },
    async () => {
      const rows = await repository.countActiveSubscribersByCountry(db);
      return { labels: rows.map((row) => row.label), data: rows.map((row) => Number(row.value)) };
    },
  );
};
