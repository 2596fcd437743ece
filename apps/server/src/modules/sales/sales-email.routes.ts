import { bulkEmailPreviewSchema, bulkEmailQueuedResultSchema } from '@back-office/contract/mail';
import {
  type SaleEmailPreview,
  saleEmailListInputSchema,
  saleEmailPreviewInputSchema,
} from '@back-office/contract/sales';
import { emailQueuedResultSchema } from '@back-office/contract/subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import type { SubscriberEmailService } from '../subscribers/subscriber-email.service.ts';
import { buyersOfSalesSql } from './sales.repository.ts';

const orUndefined = <T>(value: T | null | undefined) => (value === null ? undefined : value);

/**
 * `POST /api/sales/email/list` (part 2 §7 Sales; docs/decisions/006): one personalised message, with the
 * unsubscribe link, to each distinct buyer behind the sales matching the filters who has an email
 * address; the same sending code as the subscribers' bulk email, with its preview and its test. Any
 * signed-in user.
 */
export const salesEmailRoutes: FastifyPluginAsyncZod<{
  subscriberEmailService: SubscriberEmailService;
  /** IANA zone whose days the date filters are (docs/decisions/012). */
  timeZone: string;
}> = async (app, { subscriberEmailService, timeZone }) => {
  const tags = ['sales'];
  const buyersOf = (input: Omit<SaleEmailPreview, 'subject' | 'message'>) =>
    buyersOfSalesSql(
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

  app.post(
    '/api/sales/email/list',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Email the buyers behind the matching sales',
        body: saleEmailListInputSchema,
        response: { 202: bulkEmailQueuedResultSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const result = await subscriberEmailService.sendToRecipients(
        buyersOf(input),
        input,
        currentUser(request),
      );
      return reply.status(202).send(result);
    },
  );

  app.post(
    '/api/sales/email/list/preview',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'How many buyers the email reaches and skips (no address, unsubscribed, deleted), and the first message',
        body: saleEmailPreviewInputSchema,
        response: { 200: bulkEmailPreviewSchema },
      },
    },
    (request) => subscriberEmailService.previewRecipients(buyersOf(request.body), request.body),
  );

  app.post(
    '/api/sales/email/list/test',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: "Queue the first buyer's message to the signed-in user, as a test",
        body: saleEmailListInputSchema,
        response: { 202: emailQueuedResultSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await subscriberEmailService.sendTest(buyersOf(request.body), request.body, currentUser(request)),
        ),
  );
};
