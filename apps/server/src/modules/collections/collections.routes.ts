import {
  COLLECTION_RETURNS_MAX_FILE_BYTES,
  collectionDetailSchema,
  collectionFileQuerySchema,
  collectionLineParamsSchema,
  collectionListSchema,
  collectionReturnsResultSchema,
  collectionSummarySchema,
  createCollectionSchema,
} from '@back-office/contract/collections';
import { idParamsSchema } from '@back-office/contract/common';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { readUpload, requireFile } from '../../http/read-upload.ts';
import { sendDownload } from '../../http/send-download.ts';
import { createBadReturnFileError } from './collections.errors.ts';
import type { CollectionsService } from './collections.service.ts';

const XML_CONTENT_TYPE = 'application/xml';
const MEGABYTES = COLLECTION_RETURNS_MAX_FILE_BYTES / (1024 * 1024);

/**
 * SEPA direct-debit collections (contract `collections`; not in the spec; docs/decisions/029; EPC
 * SEPA Core Direct Debit rulebook, ISO 20022 pain.008). Administrators only: a collection moves money
 * from the donors' accounts. Amounts are euros, dates `YYYY-MM-DD`; errors are problem documents: 400
 * naming the field, 404 for an unknown collection or line, 409 for a due date too soon, an export too
 * late, missing settings, a collection no longer a draft, the other file version, a second settlement;
 * 400 `direct_debit.invalid_return_file` for a return file that is not a pain.002 or camt.054.
 */
export const collectionsRoutes: FastifyPluginAsyncZod<{ collectionsService: CollectionsService }> = async (
  app,
  { collectionsService: service },
) => {
  const tags = ['collections'];
  // Multipart bodies are accepted by the returns only: one bank file of at most 10 MB, read into memory.
  await app.register(multipart, {
    limits: { fileSize: COLLECTION_RETURNS_MAX_FILE_BYTES, files: 1, fields: 2, fieldSize: 1000, parts: 3 },
  });

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

  app.post(
    '/api/collections/returns',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          "Apply the bank's returns and rejections (multipart: `file`, a pain.002 or camt.054): lines returned or rejected with their reason, donations cancelled or flagged, mandates suspended; the same file twice changes nothing",
        consumes: ['multipart/form-data'],
        response: { 200: collectionReturnsResultSchema },
      },
    },
    async (request) => {
      const upload = await readUpload(request, {
        badFile: createBadReturnFileError,
        notMultipart: 'Send the file as multipart/form-data, in the field "file".',
        tooLarge: `The file is over ${MEGABYTES} MB: a bank's return file is far smaller.`,
      });
      const { bytes } = requireFile(upload, createBadReturnFileError);
      return service.applyReturns(bytes, currentUser(request));
    },
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
