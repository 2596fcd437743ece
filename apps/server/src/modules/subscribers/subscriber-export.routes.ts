import { subscriberExportQuerySchema } from '@back-office/contract/subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendDownload } from '../../http/send-download.ts';
import { XLSX_CONTENT_TYPE } from '../../lib/spreadsheet/xlsx-stream.ts';
import { SUBSCRIBERS_EXPORT_FILENAME, type SubscriberExportService } from './subscriber-export.service.ts';

/** `GET /api/subscribers/export` (part 2 §7 Subscribers). Any signed-in user. */
export const subscriberExportRoutes: FastifyPluginAsyncZod<{
  subscriberExportService: SubscriberExportService;
}> = async (app, { subscriberExportService: service }) => {
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
      sendDownload(reply, {
        filename: SUBSCRIBERS_EXPORT_FILENAME,
        contentType: XLSX_CONTENT_TYPE,
        body: service.export(request.query),
      }),
  );
};
