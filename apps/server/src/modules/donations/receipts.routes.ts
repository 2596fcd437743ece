import { MAX_ID } from '@back-office/contract/common';
import { annualReceiptEmailedSchema } from '@back-office/contract/donations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import { PDF_CONTENT_TYPE } from '../../lib/pdf/pdf-renderer.ts';
import type { ReceiptsService } from './receipts.service.ts';

const donationParams = z.object({ donationId: z.coerce.number().int().positive().max(MAX_ID) });
const annualParams = z.object({
  subscriberId: z.coerce.number().int().positive().max(MAX_ID),
  year: z.coerce
    .number()
    .int()
    .min(1900, { message: 'The year must be between 1900 and 2999.' })
    .max(2999, { message: 'The year must be between 1900 and 2999.' }),
});
const queuedSchema = z.object({ queued: z.number().int() });

/** Tax receipt endpoints (part 2 §7 Donations; docs/decisions/005). Any signed-in user. */
export const receiptsRoutes: FastifyPluginAsyncZod<{ receiptsService: ReceiptsService }> = async (
  app,
  { receiptsService: service },
) => {
  const tags = ['donations: receipts'];

  app.get(
    '/api/donations/receipt/:donationId',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'The tax receipt of one donation (issued on first download), as donation-{id}-receipt.pdf',
        params: donationParams,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.donationReceipt(request.params.donationId, currentUser(request));
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );

  app.get(
    '/api/donations/receipt/:subscriberId/:year',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'A donor’s annual tax receipt, as {lastname}-donations-receipt-{year}.pdf',
        params: annualParams,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const { subscriberId, year } = request.params;
      const file = await service.annualReceipt(subscriberId, year, currentUser(request));
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );

  app.get(
    '/api/donations/email/:donationId',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Email the receipt of one donation to the donor (PDF attached, through the outbox)',
        params: donationParams,
        response: { 200: queuedSchema },
      },
    },
    async (request) => {
      await service.emailDonationReceipt(request.params.donationId, currentUser(request));
      return { queued: 1 };
    },
  );

  app.get(
    '/api/donations/annualemail/:subscriberId/:year',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Email the annual receipt to the donor (PDF attached, through the outbox)',
        params: annualParams,
        response: { 200: annualReceiptEmailedSchema },
      },
    },
    async (request) => {
      const result = await service.emailAnnualReceipt(
        request.params.subscriberId,
        request.params.year,
        currentUser(request),
      );
      return { queued: 1, ...result };
    },
  );
};
