import { calendarDay } from '@back-office/contract/calendar';
import {
  lowStockSchema,
  overdueInvoicesSchema,
  subscribersByCountrySchema,
} from '@back-office/contract/dashboard';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DashboardRepository } from './dashboard.repository.ts';

/**
 * `GET /api/dash/prods` and `GET /api/dash/subs` (part 1 §7 Dashboard), `GET /api/dash/overdue`
 * (docs/decisions/032). Any signed-in user.
 */
export const dashboardRoutes: FastifyPluginAsyncZod<{
  db: Database;
  repository: DashboardRepository;
  clock: Clock;
  timeZone: string;
}> = async (app, { db, repository, clock, timeZone }) => {
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

  app.get(
    '/api/dash/overdue',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['dashboard'],
        summary: 'Overdue invoices: how many, and what remains to pay per currency',
        response: { 200: overdueInvoicesSchema },
      },
    },
    async () => {
      const rows = await repository.overdueInvoicesByCurrency(
        db,
        timeZone,
        calendarDay(clock.now(), timeZone),
      );
      return {
        count: rows.reduce((sum, row) => sum + row.count, 0),
        amounts: rows.map((row) => ({ currencySymbol: row.currencySymbol, amount: Number(row.remaining) })),
      };
    },
  );
};
