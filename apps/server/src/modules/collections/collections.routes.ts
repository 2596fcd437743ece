import {
  collectionDetailSchema,
  collectionFileQuerySchema,
  collectionLineParamsSchema,
  collectionListSchema,
  collectionSummarySchema,
  createCollectionSchema,
} from '@back-office/contract/collections';
import { idParamsSchema } from '@back-office/contract/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import type { CollectionsService } from './collections.service.ts';

const XML_CONTENT_TYPE = 'application/xml';

/**
 * SEPA direct-debit collections (contract `collections`; not in the spec; docs/decisions/029; EPC
 * SEPA Core Direct Debit rulebook, ISO 20022 pain.008). Administrators only: a collection moves money
 * from the donors' accounts. Amounts are euros, dates `YYYY-MM-DD`; errors are problem documents: 400
 * naming the field, 404 for an unknown collection or line, 409 for a due date too soon, an export too
 * late, missing settings, a collection no longer a draft, the other file version, a second settlement.
 */
export const collectionsRoutes: FastifyPluginAsyncZod<{ collectionsService: CollectionsService }> = async (
  app,
  { collectionsService: service },
) => {
  const tags = ['collections'];

  app.post(
    '/api/collections',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'Build the draft collection of {dueDate}: 201 when created, 200 when a draft of that day existed (new installments due are added to it); 409 collections.too_soon before today + the pre-notification days',
        body: createCollectionSchema,
        response: { 200: collectionSummarySchema, 201: collectionSummarySchema },
      },
    },
    async (request, reply) => {
      const built = await service.build(request.body.dueDate, currentUser(request));
      return reply.status(built.created ? 201 : 200).send(built.collection);
    },
  );

  app.get(
    '/api/collections',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'The collections, newest due date first, with their count, total (euros) and status',
        response: { 200: collectionListSchema },
      },
    },
    () => service.list(),
  );

  app.get(
    '/api/collections/:id',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'A collection with its lines (debtor, RUM, masked IBAN, amount, sequence type, status)',
        params: idParamsSchema,
        response: { 200: collectionDetailSchema },
      },
    },
    (request) => service.get(request.params.id),
  );

  app.delete(
    '/api/collections/:id/lines/:lineId',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: "Remove a line from a draft collection: 204; 409 once the collection's file is exported",
        params: collectionLineParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.removeLine(request.params.id, request.params.lineId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/collections/:id/file',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          "The collection's pain.008 file as collection-<dueDate>.xml: a draft's is written, stored and the debtors notified (the collection is then exported); later the stored file, same bytes",
        params: idParamsSchema,
        querystring: collectionFileQuerySchema,
        produces: [XML_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.file(request.params.id, request.query.version, currentUser(request));
      return sendDownload(reply, {
        filename: file.filename,
        contentType: XML_CONTENT_TYPE,
        body: Buffer.from(file.xml, 'utf8'),
      });
    },
  );

  app.post(
    '/api/collections/:id/settle',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'Record an exported collection as collected: a donation per pending line; 409 collections.settled the second time',
        params: idParamsSchema,
        response: { 200: collectionSummarySchema },
      },
    },
    (request) => service.settle(request.params.id, currentUser(request)),
  );
};
