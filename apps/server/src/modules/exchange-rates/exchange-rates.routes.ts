import {
  EXCHANGE_RATES_MAX_FILE_BYTES,
  exchangeRateImportSchema,
  exchangeRateListQuerySchema,
  exchangeRateListSchema,
  exchangeRateSchema,
  saveExchangeRateSchema,
} from '@back-office/contract/exchange-rates';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import { readUpload, requireFile } from '../../http/read-upload.ts';
import { createBadRatesFileError } from './exchange-rates.errors.ts';
import type { ExchangeRatesService } from './exchange-rates.service.ts';

const MEGABYTES = EXCHANGE_RATES_MAX_FILE_BYTES / (1024 * 1024);

/**
 * Exchange rates (contract `exchange-rates`; not in the spec; docs/decisions/021): the list for anyone
 * signed in; a rate typed in, and the import of the ECB's file, for Administrators.
 */
export const exchangeRatesRoutes: FastifyPluginAsyncZod<{
  exchangeRatesService: ExchangeRatesService;
}> = async (app, { exchangeRatesService: service }) => {
  const tags = ['exchange-rates'];
  // Multipart bodies are accepted by the import only: one file of at most 10 MB, read into memory.
  await app.register(multipart, {
    limits: { fileSize: EXCHANGE_RATES_MAX_FILE_BYTES, files: 1, fields: 2, fieldSize: 1000, parts: 3 },
  });

  app.get(
    '/api/exchange-rates',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Exchange rates (units of the currency for 1 euro), newest day first (filters: currency, from, to)',
        querystring: exchangeRateListQuerySchema,
        response: { 200: exchangeRateListSchema },
      },
    },
    (request) => service.list(request.query),
  );

  app.post(
    '/api/exchange-rates',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'Store the rate of a currency on a day: 201 stored, 200 the same rate was stored already, 409 another one is',
        body: saveExchangeRateSchema,
        response: { 200: exchangeRateSchema, 201: exchangeRateSchema },
      },
    },
    async (request, reply) => {
      const saved = await service.save(request.body, currentUser(request));
      return reply.status(saved.created ? 201 : 200).send(saved.rate);
    },
  );

  app.post(
    '/api/exchange-rates/import',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          "Import the ECB's eurofxref-hist.csv (multipart: `file`); rates already stored are kept and counted as skipped",
        consumes: ['multipart/form-data'],
        response: { 200: exchangeRateImportSchema },
      },
    },
    async (request) => {
      const upload = await readUpload(request, {
        badFile: createBadRatesFileError,
        notMultipart: 'Send the file as multipart/form-data, in the field "file".',
        tooLarge: `The file is over ${MEGABYTES} MB; the ECB's whole history is about 2 MB.`,
      });
      const { bytes } = requireFile(upload, createBadRatesFileError);
      return service.importEcb(bytes, currentUser(request));
    },
  );
};
