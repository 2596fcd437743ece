import { idParamsSchema } from '@back-office/contract/common';
import { cancelSaleInputSchema, creditNoteSchema } from '@back-office/contract/sales';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import { PDF_CONTENT_TYPE } from '../../lib/pdf/pdf-renderer.ts';
import type { CreditNotesService } from './credit-notes.service.ts';

/**
 * Credit notes: cancelling a sale whose invoice was issued, and the credit note PDF. Any signed-in
 * user, as for deleting a sale.
 */
export const creditNotesRoutes: FastifyPluginAsyncZod<{ creditNotesService: CreditNotesService }> = async (
  app,
  { creditNotesService: service },
) => {
  const tags = ['sales'];

  app.post(
    '/api/sales/:id/cancel',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Cancel a sale whose invoice was issued: a credit note with its own number, stock put back',
        description:
          '201 with the credit note; 409 `sales.already_cancelled` on a second cancel, 409 `sales.invoice_not_issued` when no invoice was issued (delete the sale instead).',
        params: idParamsSchema,
        body: cancelSaleInputSchema,
        response: { 201: creditNoteSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.cancel(request.params.id, request.body.reason, currentUser(request))),
  );

  app.get(
    '/api/sales/:id/credit-note',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'The credit note of a cancelled sale, as credit-note-{number}.pdf',
        params: idParamsSchema,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.document(request.params.id);
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );
};
