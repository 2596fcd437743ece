import { idParamsSchema } from '@back-office/contract/common';
import {
  createDonationInputSchema,
  donationListItemSchema,
  donationSearchQuerySchema,
  donationSearchResultSchema,
} from '@back-office/contract/donations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import type { DonationsService } from './donations.service.ts';

/** Donation endpoints (part 2 §7 Donations). Any signed-in user. */
export const donationsRoutes: FastifyPluginAsyncZod<{ donationsService: DonationsService }> = async (
  app,
  { donationsService: service },
) => {
  const tags = ['donations'];

  app.get(
    '/api/donations',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Search donations, newest first',
        querystring: donationSearchQuerySchema,
        response: { 200: donationSearchResultSchema },
      },
    },
    (request) => service.search(request.query),
  );

  app.post(
    '/api/donations',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Record a donation in the donor’s currency',
        body: createDonationInputSchema,
        response: { 201: donationListItemSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, currentUser(request))),
  );

  app.delete(
    '/api/donations/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Delete a donation no receipt covers yet',
        description:
          '409 `donations.receipted` when a tax receipt covers it, 409 `donations.from_sale` when it is the gift of a sale not cancelled (delete the sale, or cancel it with a credit note, instead).',
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id, currentUser(request));
      return reply.status(204).send(null);
    },
  );
};
