import { saleEmailListInputSchema } from '@back-office/contract/sales';
import { emailQueuedResultSchema } from '@back-office/contract/subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import type { SubscriberEmailService } from '../subscribers/subscriber-email.service.ts';
import { buyersOfSalesSql } from './sales.repository.ts';

const orUndefined = <T>(value: T | null | undefined) => (value === null ? undefined : value);

/**
 * `POST /api/sales/email/list` (part 2 §7 Sales; docs/decisions/006): one personalised message, with the
 * unsubscribe link, to each distinct buyer behind the sales matching the filters who has an email
 * address; the same sending code as the subscribers' bulk email. Any signed-in user.
 */
export const salesEmailRoutes: FastifyPluginAsyncZod<{
  subscriberEmailService: SubscriberEmailService;
  /** IANA zone whose days the date filters are (docs/decisions/012). */
  timeZone: string;
}> = async (app, { subscriberEmailService, timeZone }) => {
  app.post(
    '/api/sales/email/list',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['sales'],
        summary: 'Email the buyers behind the matching sales',
        body: saleEmailListInputSchema,
        response: { 202: emailQueuedResultSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const buyers = buyersOfSalesSql(
        {
          id: orUndefined(input.id),
          name: orUndefined(input.name),
          zip: orUndefined(input.postCode),
          salesref: orUndefined(input.salesRef),
          addedafter: orUndefined(input.addedAfter),
          addedbefore: orUndefined(input.addedBefore),
          greaterThan: orUndefined(input.amountMin),
          lessThan: orUndefined(input.amountMax),
          productid: orUndefined(input.productId),
        },
        timeZone,
      );
      const result = await subscriberEmailService.sendToRecipients(buyers, input, currentUser(request));
      return reply.status(202).send(result);
    },
  );
};
