import { idParamsSchema } from '@back-office/contract/common';
import { anonymiseSubscriberInputSchema } from '@back-office/contract/personal-data';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import type { PersonalDataService } from './personal-data.service.ts';

const ZIP_CONTENT_TYPE = 'application/zip';

/**
 * Personal-data rights of a subscriber (GDPR art. 15, 17, 20; docs/decisions/019), Administrator only:
 * the archive download and the anonymisation.
 */
export const personalDataRoutes: FastifyPluginAsyncZod<{ personalDataService: PersonalDataService }> = async (
  app,
  { personalDataService: service },
) => {
  const tags = ['subscribers'];

  app.get(
    '/api/subscribers/:id/personal-data',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Everything held about a subscriber, as personal-data-{id}-{YYYY-MM-DD}.zip (audited)',
        params: idParamsSchema,
        produces: [ZIP_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.archive(request.params.id, currentUser(request));
      return sendDownload(reply, { filename: file.filename, contentType: ZIP_CONTENT_TYPE, body: file.zip });
    },
  );

  app.post(
    '/api/subscribers/:id/anonymise',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary:
          'Erase a subscriber’s identity for good, keeping money facts and issued documents (409 when done)',
        params: idParamsSchema,
        body: anonymiseSubscriberInputSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.anonymise(request.params.id, request.body.reason, currentUser(request));
      return reply.status(204).send(null);
    },
  );
};
