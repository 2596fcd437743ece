import { idParamsSchema } from '@back-office/contract/common';
import {
  commitImportSchema,
  IMPORT_MAX_FILE_BYTES,
  importDryRunQuerySchema,
  importDryRunSchema,
  importListSchema,
  importSchema,
  saveImportMappingSchema,
  startImportFieldsSchema,
} from '@back-office/contract/imports';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import { readUpload } from '../../http/read-upload.ts';
import { createBadImportFileError } from './imports.errors.ts';
import type { ImportsService } from './imports.service.ts';

const MEGABYTES = IMPORT_MAX_FILE_BYTES / (1024 * 1024);

/**
 * Imports (contract `imports`; not in the spec): upload a CSV or XLSX file, map its columns, dry-run it,
 * commit it in the background, follow it, undo it. Administrator only.
 */
export const importsRoutes: FastifyPluginAsyncZod<{ importsService: ImportsService }> = async (
  app,
  { importsService: service },
) => {
  const tags = ['imports'];
  // Multipart bodies are accepted here only; one file, at most 50 MB, read into memory (Administrator).
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_FILE_BYTES, files: 1, fields: 5, fieldSize: 1000, parts: 6 },
  });

  app.post(
    '/api/imports',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'Upload a CSV or XLSX file to import (multipart: `kind`, `file`); answers its columns and guessed mapping',
        consumes: ['multipart/form-data'],
        response: { 201: importSchema },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(request, {
        badFile: createBadImportFileError,
        notMultipart: 'Send the file as multipart/form-data, with the fields "kind" and "file".',
        tooLarge: `The file is over ${MEGABYTES} MB; split it into smaller files.`,
      });
      const parsed = startImportFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        throw createBadImportFileError('Say what the file holds: "kind" must be subscribers.', [
          { path: 'kind', message: 'Choose what the file holds.' },
        ]);
      }
      if (!file)
        throw createBadImportFileError('No file was sent.', [{ path: 'file', message: 'Choose a file.' }]);
      return reply
        .status(201)
        .send(await service.upload({ kind: parsed.data.kind, ...file }, currentUser(request)));
    },
  );

  app.get(
    '/api/imports',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'The imports, newest first (at most 50)',
        response: { 200: importListSchema },
      },
    },
    () => service.list(),
  );

  app.get(
    '/api/imports/:id',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'One import, with its status and, while it is committed, its progress',
        params: idParamsSchema,
        response: { 200: importSchema },
      },
    },
    (request) => service.get(request.params.id),
  );

  app.put(
    '/api/imports/:id/mapping',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Set which column fills which field, and how cells are read',
        params: idParamsSchema,
        body: saveImportMappingSchema,
        response: { 200: importSchema },
      },
    },
    (request) => service.saveMapping(request.params.id, request.body),
  );

  app.post(
    '/api/imports/:id/dry-run',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Check every row without writing anything; answers the totals and a page of rows',
        params: idParamsSchema,
        querystring: importDryRunQuerySchema,
        response: { 200: importDryRunSchema },
      },
    },
    (request) => service.dryRun(request.params.id, request.query),
  );

  app.post(
    '/api/imports/:id/commit',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Write the checked import into the register, all or nothing, in the background',
        params: idParamsSchema,
        body: commitImportSchema,
        response: { 202: importSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.commit(request.params.id, request.body, currentUser(request))),
  );

  app.post(
    '/api/imports/:id/undo',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Remove what the import created and put back what it merged (409 if changed since)',
        params: idParamsSchema,
        response: { 200: importSchema },
      },
    },
    async (request) => service.undo(request.params.id, currentUser(request)),
  );
};
