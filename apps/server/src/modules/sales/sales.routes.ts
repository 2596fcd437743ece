import { idParamsSchema } from '@back-office/contract/common';
import {
  createSaleInputSchema,
  recordPaymentSchema,
  saleSchema,
  saleSearchQuerySchema,
  saleSummarySchema,
} from '@back-office/contract/sales';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import { PDF_CONTENT_TYPE } from '../../lib/pdf/pdf-renderer.ts';
import type { SalesService } from './sales.service.ts';

/** Sales endpoints (part 2 §7 Sales). Any signed-in user. */
export const salesRoutes: FastifyPluginAsyncZod<{ salesService: SalesService }> = async (
  app,
  { salesService: service },
) => {
  const tags = ['sales'];

  app.get(
    '/api/sales',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Search sales, newest first',
        querystring: saleSearchQuerySchema,
        response: { 200: z.array(saleSummarySchema) },
      },
    },
    (request) => service.search(request.query),
  );

  app.get(
    '/api/sales/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'One sale with its lines',
        params: idParamsSchema,
        response: { 200: saleSchema },
      },
    },
    (request) => service.get(request.params.id),
  );

  app.get(
    '/api/sales/receipt/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'The invoice of a sale, as sale-invoice-{ref}.pdf',
        params: idParamsSchema,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.invoice(request.params.id);
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );

  app.post(
    '/api/sales',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Save a sale: figures recomputed, reference allocated, stock taken',
        body: createSaleInputSchema,
        response: { 201: saleSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, currentUser(request))),
  );

  app.delete(
    '/api/sales/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Delete a sale and put its items back in stock',
        description:
          'The donation its gift made goes with it. 409 `sales.invoice_issued` once its invoice was issued (cancel it with a credit note instead), 409 `sales.gift_receipted` while a tax receipt covers its gift (cancel the receipt first).',
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id, currentUser(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/sales/:id/payments',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: "Record a payment of the sale's issued invoice (part of it allowed); 201 with the sale",
        description:
          'docs/decisions/032. 400 `sales.invalid` naming `date` (in the future) or `amount` (more than remains to pay); 409 `sales.invoice_not_issued`, `sales.already_cancelled`.',
        params: idParamsSchema,
        body: recordPaymentSchema,
        response: { 201: saleSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.recordPayment(request.params.id, request.body, currentUser(request))),
  );

  app.post(
    '/api/sales/:id/reminders',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Email the buyer a payment reminder of an overdue invoice, the invoice attached; 201 with the sale',
        description:
          'docs/decisions/034. 409 `sales.not_overdue`, `sales.reminder_too_soon` (names the first day allowed), `sales.no_email`.',
        params: idParamsSchema,
        response: { 201: saleSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.sendReminder(request.params.id, currentUser(request))),
  );
};
