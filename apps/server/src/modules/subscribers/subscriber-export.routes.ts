import { subscriberExportQuerySchema } from '@back-office/contract/subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { XLSX_CONTENT_TYPE } from '../../lib/spreadsheet/xlsx-stream.ts';
import { sendInlineExport } from '../exports/export-source.ts';
import type { SubscriberExportService } from './subscriber-export.service.ts';

/**
 * `GET /api/subscribers/export` (part 2 §7 Subscribers). Any signed-in user. More than
 * `inlineRowLimit` matches: 409 `exports.too_large` (a background export, contract `exports`).
 */
export const subscriberExportRoutes: FastifyPluginAsyncZod<{
  subscriberExportService: SubscriberExportService;
  inlineRowLimit: number;
}> = async (app, { subscriberExportService: service, inlineRowLimit }) => {
  app.get(
    '/api/subscribers/export',
    {
      config: { access: 'signed-in', export: true },
      schema: {
        tags: ['subscribers'],
        summary:
          'Download the subscribers matching the search filters as subscribers-export.xlsx (all details, or names and email addresses with emailsOnly), whatever the Accept header',
        querystring: subscriberExportQuerySchema,
        produces: [XLSX_CONTENT_TYPE],
      },
    },
    (request, reply) =>
      sendInlineExport(reply, { source: service, query: request.query, limit: inlineRowLimit }),
  );
};
