import { idParamsSchema } from '@back-office/contract/common';
import { exportFileSchema, startExportSchema } from '@back-office/contract/exports';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import type { ExportsService } from './exports.service.ts';

/**
 * Large exports (contract `exports`; not in the spec): start one, follow it, download its file, cancel
 * it. Any signed-in user, for their own exports only.
 */
export const exportsRoutes: FastifyPluginAsyncZod<{ exportsService: ExportsService }> = async (
  app,
  { exportsService: service },
) => {
  const tags = ['exports'];

  app.post(
    '/api/exports',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Start an export that is too large to stream (more than 50 000 rows); its file is written in the background',
        body: startExportSchema,
        response: { 202: exportFileSchema },
      },
    },
    async (request, reply) => reply.status(202).send(await service.start(request.body, currentUser(request))),
  );

  app.get(
    '/api/exports/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'One of your exports, with its state and progress',
        params: idParamsSchema,
        response: { 200: exportFileSchema },
      },
    },
    (request) => service.get(request.params.id, currentUser(request)),
  );

  app.get(
    '/api/exports/:id/file',
    {
      config: { access: 'signed-in', export: true },
      schema: {
        tags,
        summary: 'Download the file of one of your finished exports (409 while written, 410 once purged)',
        params: idParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await service.file(request.params.id, currentUser(request));
      // The size is known: the browser shows the download's progress, and a cut is seen as one.
      void reply.header('content-length', file.bytes);
      return sendDownload(reply, { filename: file.fileName, contentType: file.contentType, body: file.body });
    },
  );

  app.post(
    '/api/exports/:id/cancel',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Cancel one of your exports while it is queued or written',
        params: idParamsSchema,
        response: { 202: exportFileSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.cancel(request.params.id, currentUser(request))),
  );
};
