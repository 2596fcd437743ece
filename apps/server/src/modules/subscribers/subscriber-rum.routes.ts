import { idParamsSchema } from '@back-office/contract/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import { PDF_CONTENT_TYPE } from '../../lib/pdf/pdf-renderer.ts';
import type { SubscriberRumService } from './subscriber-rum.service.ts';

/** `GET /api/subscribers/{id}/rum` (part 2 §7 Subscribers). Any signed-in user. */
export const subscriberRumRoutes: FastifyPluginAsyncZod<{
  subscriberRumService: SubscriberRumService;
}> = async (app, { subscriberRumService: service }) => {
  app.get(
    '/api/subscribers/:id/rum',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['subscribers'],
        summary:
          'The SEPA direct-debit mandate form as {lastname}-rum-letter.pdf; gives the subscriber a mandate reference (RUM) when it has none',
        params: idParamsSchema,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const letter = await service.letter(request.params.id, currentUser(request));
      return sendDownload(reply, {
        filename: letter.filename,
        contentType: PDF_CONTENT_TYPE,
        body: letter.pdf,
      });
    },
  );
};
