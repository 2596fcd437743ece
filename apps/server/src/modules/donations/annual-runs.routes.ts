import {
  annualRunProgressSchema,
  startAnnualRunInputSchema,
} from '@back-office/contract/annual-receipt-runs';
import { idParamsSchema } from '@back-office/contract/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import { PDF_CONTENT_TYPE } from '../../lib/pdf/pdf-renderer.ts';
import type { AnnualRunsService } from './annual-runs.service.ts';

/** The annual receipt run (not in the spec). Administrator only. */
export const annualRunsRoutes: FastifyPluginAsyncZod<{
  annualRunsService: AnnualRunsService;
  onStarted: () => void;
}> = async (app, { annualRunsService: service, onStarted }) => {
  const tags = ['donations: annual receipt runs'];

  app.get(
    '/api/donations/annual-runs',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Recent annual receipt runs with their progress',
        response: { 200: z.array(annualRunProgressSchema) },
      },
    },
    () => service.list(),
  );

  app.post(
    '/api/donations/annual-runs',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Start issuing and emailing the annual receipts of a year',
        body: startAnnualRunInputSchema,
        response: { 202: annualRunProgressSchema },
      },
    },
    async (request, reply) => {
      const run = await service.start(request.body.year, currentUser(request));
      onStarted();
      return reply.status(202).send(run);
    },
  );

  app.get(
    '/api/donations/annual-runs/:id',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Progress of a run',
        params: idParamsSchema,
        response: { 200: annualRunProgressSchema },
      },
    },
    (request) => service.progress(request.params.id),
  );

  app.get(
    '/api/donations/annual-runs/:id/print',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'One PDF of the receipts of donors without email, for printing',
        params: idParamsSchema,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.printFile(request.params.id);
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );
};
