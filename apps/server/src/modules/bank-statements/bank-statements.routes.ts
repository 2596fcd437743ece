import {
  assignStatementEntrySchema,
  BANK_STATEMENT_MAX_FILE_BYTES,
  bankStatementEntrySchema,
  statementEntryListQuerySchema,
  statementEntryListSchema,
  statementImportSchema,
} from '@back-office/contract/bank-statements';
import { idParamsSchema } from '@back-office/contract/common';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import { readUpload, requireFile } from '../../http/read-upload.ts';
import { createBadStatementUploadError } from './bank-statements.errors.ts';
import type { BankStatementsService } from './bank-statements.service.ts';

const MEGABYTES = BANK_STATEMENT_MAX_FILE_BYTES / (1024 * 1024);

/**
 * Bank statements (contract `bank-statements`; not in the spec; docs/decisions/033; ISO 20022
 * camt.053 and camt.054): the import, the review queue and its decisions. Administrators only: the
 * entries carry the account holders' names and IBANs. Errors are problem documents naming the field.
 */
export const bankStatementsRoutes: FastifyPluginAsyncZod<{
  bankStatementsService: BankStatementsService;
}> = async (app, { bankStatementsService: service }) => {
  const tags = ['bank-statements'];
  // Multipart bodies are accepted by the import only: one file (XML or ZIP) of at most 50 MB, in memory.
  await app.register(multipart, {
    limits: { fileSize: BANK_STATEMENT_MAX_FILE_BYTES, files: 1, fields: 2, fieldSize: 1000, parts: 3 },
  });

  app.post(
    '/api/bank-statements',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'Import a camt.053 or camt.054 file, or a ZIP of them (multipart: `file`): credits matched to the invoices they pay, the rest queued for review; the same file twice adds nothing',
        consumes: ['multipart/form-data'],
        response: { 200: statementImportSchema },
      },
    },
    async (request) => {
      const upload = await readUpload(request, {
        badFile: createBadStatementUploadError,
        notMultipart: 'Send the file as multipart/form-data, in the field "file".',
        tooLarge: `The file is over ${MEGABYTES} MB: send the statements in several files.`,
      });
      const file = requireFile(upload, createBadStatementUploadError);
      return service.importFile(file.bytes, file.fileName, currentUser(request));
    },
  );

  app.get(
    '/api/bank-statements/entries',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'The statement entries of one status (unmatched by default: the review queue), oldest first',
        querystring: statementEntryListQuerySchema,
        response: { 200: statementEntryListSchema },
      },
    },
    (request) => service.list(request.query),
  );

  app.post(
    '/api/bank-statements/entries/:id/assign',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          "Decide an unmatched credit: a payment of a sale's invoice, a donation, or dismissed with a reason; 409 once decided",
        params: idParamsSchema,
        body: assignStatementEntrySchema,
        response: { 200: bankStatementEntrySchema },
      },
    },
    (request) => service.assign(request.params.id, request.body, currentUser(request)),
  );
};
