import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { csvExportQuerySchema, idParamsSchema } from '@back-office/contract/common';
import {
  productListSchema,
  productSchema,
  saveProductInputSchema,
  stockAdjustmentInputSchema,
  stockMovementListSchema,
  stockMovementQuerySchema,
  stockMovementSchema,
  updateProductInputSchema,
} from '@back-office/contract/products';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import type { Clock } from '../../lib/clock.ts';
import { CSV_CONTENT_TYPE, csvStream } from '../../lib/csv.ts';
import type { ProductsService } from './products.service.ts';

const EXPORT_COLUMNS = [
  { key: 'id', header: 'id' },
  { key: 'name', header: 'name' },
  { key: 'euroPrice', header: 'euroPrice', decimal: true },
  { key: 'swissPrice', header: 'swissPrice', decimal: true },
  { key: 'active', header: 'active' },
  { key: 'currentStock', header: 'currentStock' },
  { key: 'minStockAlert', header: 'minStockAlert' },
] as const;

/** `products-export-YYYY-MM-DD.csv`, dated by the organisation's day at `now` (part 1 §7 Products; docs/decisions/012). */
export function productsExportFilename(now: Date, timeZone = DEFAULT_TIME_ZONE): string {
  return `products-export-${calendarDay(now, timeZone)}.csv`;
}

/**
 * Products endpoints (part 1 §7 Products) and their stock ledger (`/movements`, `/adjustments`).
 * Any signed-in user.
 */
export const productsRoutes: FastifyPluginAsyncZod<{
  productsService: ProductsService;
  clock: Clock;
  /** IANA zone that dates the export's file name (docs/decisions/012). */
  timeZone: string;
}> = async (app, { productsService: service, clock, timeZone }) => {
  const tags = ['products'];

  app.get(
    '/api/products',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'List products', response: { 200: productListSchema } },
    },
    () => service.list(),
  );

  app.get(
    '/api/products/export',
    {
      config: { access: 'signed-in', export: true },
      schema: {
        tags,
        summary:
          'Download every product as CSV (UTF-8 with BOM; dialect rfc4180 or excel-fr), whatever the Accept header',
        querystring: csvExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const products = await service.list();
      return sendDownload(reply, {
        filename: productsExportFilename(clock.now(), timeZone),
        contentType: CSV_CONTENT_TYPE,
        body: csvStream(products, EXPORT_COLUMNS, request.query.dialect),
      });
    },
  );

  app.get(
    '/api/products/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'One product', params: idParamsSchema, response: { 200: productSchema } },
    },
    (request) => service.get(request.params.id),
  );

  app.post(
    '/api/products',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Add a product',
        body: saveProductInputSchema,
        response: { 201: productSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, currentUser(request))),
  );

  app.patch(
    '/api/products/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Update a product',
        params: idParamsSchema,
        body: updateProductInputSchema,
        response: { 200: productSchema },
      },
    },
    (request) => service.update(request.params.id, request.body, currentUser(request)),
  );

  app.get(
    '/api/products/:id/movements',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: "A product's stock movements, newest first: {count, models}",
        params: idParamsSchema,
        querystring: stockMovementQuerySchema,
        response: { 200: stockMovementListSchema },
      },
    },
    (request) => service.movements(request.params.id, request.query),
  );

  app.post(
    '/api/products/:id/adjustments',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Adjust the stock by a signed quantity with a reason (409 insufficient_stock below 0)',
        params: idParamsSchema,
        body: stockAdjustmentInputSchema,
        response: { 201: stockMovementSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.adjust(request.params.id, request.body, currentUser(request))),
  );

  app.delete(
    '/api/products/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Delete a product (kept on past sales)',
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id, currentUser(request));
      return reply.status(204).send(null);
    },
  );
};
