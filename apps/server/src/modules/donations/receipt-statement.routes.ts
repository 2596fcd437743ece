import {
  receiptStatementExportQuerySchema,
  receiptStatementQuerySchema,
  receiptStatementSchema,
} from '@back-office/contract/receipts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendDownload } from '../../http/send-download.ts';
import { CSV_CONTENT_TYPE, csvStream } from '../../lib/csv.ts';
import { PDF_CONTENT_TYPE } from '../../lib/pdf/pdf-renderer.ts';
import type { ReceiptStatementService } from './receipt-statement.service.ts';

/** The columns of the statement's CSV export: one row per article of the tax code, then the total. */
const STATEMENT_COLUMNS = [
  { key: 'year', header: 'year' },
  { key: 'type', header: 'type' },
  { key: 'count', header: 'count' },
  { key: 'amount', header: 'amount', decimal: true },
  { key: 'currency', header: 'currency' },
] as const;

/**
 * The annual statement of the tax receipts issued (CGI art. 222 bis), Administrators only: as JSON,
 * as a one-page PDF and as CSV. Amounts in euros, 2 decimals.
 */
export const receiptStatementRoutes: FastifyPluginAsyncZod<{
  receiptStatementService: ReceiptStatementService;
}> = async (app, { receiptStatementService: service }) => {
  const tags = ['receipts: register'];

  app.get(
    '/api/receipts/annual-statement',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'The annual statement of CGI art. 222 bis: Cerfa receipts issued in the year (organisation’s time zone), not cancelled; count and total in euros',
        querystring: receiptStatementQuerySchema,
        response: { 200: receiptStatementSchema },
      },
    },
    async (request) => service.statement(request.query.year),
  );

  app.get(
    '/api/receipts/annual-statement/pdf',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'The annual statement of CGI art. 222 bis as a one-page PDF, amounts in euros (receipts-annual-statement-{year}.pdf)',
        querystring: receiptStatementQuerySchema,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.statementPdf(request.query.year);
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );

  app.get(
    '/api/receipts/annual-statement/export',
    {
      config: { access: 'administrator', export: true },
      schema: {
        tags,
        summary:
          'The annual statement of CGI art. 222 bis as CSV: one row per article, then the total; amounts in euros (receipts-annual-statement-{year}.csv)',
        querystring: receiptStatementExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { year, dialect } = request.query;
      // Computed before the answer starts, so that a missing exchange rate is a 409, not a cut file.
      const rows = await service.statementRows(year);
      return sendDownload(reply, {
        filename: `receipts-annual-statement-${year}.csv`,
        contentType: CSV_CONTENT_TYPE,
        body: csvStream(rows, STATEMENT_COLUMNS, dialect),
      });
    },
  );
};
