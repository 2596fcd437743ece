import { type DonationExportQuery, donationExportQuerySchema } from '@back-office/contract/donations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { XLSX_CONTENT_TYPE } from '../../lib/spreadsheet/xlsx-stream.ts';
import { type ExportSource, sendInlineExport } from '../exports/export-source.ts';

/**
 * `GET /api/donations/export` (part 2 §7): the matching donations as
 * `donation-details-export.xlsx` (one row per donation, with `isdetailed`) or
 * `donation-subscribers-export.xlsx` (one row per donor and currency with the total), whatever the
 * Accept header. Any signed-in user. More than `inlineRowLimit` rows: 409 `exports.too_large` (a
 * background export, contract `exports`).
 */
export const donationsExportRoutes: FastifyPluginAsyncZod<{
  exportSource: ExportSource<DonationExportQuery>;
  inlineRowLimit: number;
}> = async (app, { exportSource: source, inlineRowLimit }) => {
  app.get(
    '/api/donations/export',
    {
      config: { access: 'signed-in', export: true },
      schema: {
        tags: ['donations'],
        summary: 'The matching donations as XLSX: one row per donation (isdetailed) or per donor',
        querystring: donationExportQuerySchema,
        produces: [XLSX_CONTENT_TYPE],
      },
    },
    (request, reply) =>
      sendInlineExport(reply, { source: source, query: request.query, limit: inlineRowLimit }),
  );
};
