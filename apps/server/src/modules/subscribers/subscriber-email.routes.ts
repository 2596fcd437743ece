import { idParamsSchema } from '@back-office/contract/common';
import { emailQueuedResultSchema, subscriberEmailListInputSchema } from '@back-office/contract/subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import type { SubscriberEmailService } from './subscriber-email.service.ts';
import {
  confirmUnsubscribePage,
  invalidUnsubscribeLinkPage,
  unsubscribedPage,
} from './subscriber-email-text.ts';

/**
 * Emails to subscribers (part 2 §7 Subscribers; docs/decisions/006): the returned-brochure email and the bulk
 * email (any signed-in user; both answer `202 {queued}` once the messages are in the outbox), and the
 * public unsubscribe link that the bulk emails carry.
 */
export const subscriberEmailRoutes: FastifyPluginAsyncZod<{
  subscriberEmailService: SubscriberEmailService;
}> = async (app, { subscriberEmailService: service }) => {
  const tags = ['subscribers'];

  app.get(
    '/api/subscribers/:id/brochure/email',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Queue the returned-brochure email to the subscriber (400 naming `email` when there is none)',
        params: idParamsSchema,
        response: { 202: emailQueuedResultSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.sendReturnedBrochure(request.params.id, currentUser(request))),
  );

  app.post(
    '/api/subscribers/email/list',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Queue one personalised email, with an unsubscribe link, per matching subscriber who has an email address',
        body: subscriberEmailListInputSchema,
        response: { 202: emailQueuedResultSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.sendToList(request.body, currentUser(request))),
  );

  const readLink = (values: { s?: unknown; t?: unknown }) => {
    const s = typeof values.s === 'string' ? values.s : '';
    const t = typeof values.t === 'string' ? values.t : '';
    return /^[1-9]\d{0,9}$/.test(s) && Number(s) <= 2_147_483_647 && /^[\w-]{1,100}$/.test(t)
      ? { subscriberId: Number(s), token: t }
      : undefined;
  };
  const linkSchema = z.object({ s: z.unknown().optional(), t: z.unknown().optional() });

  // The confirmation form posts url-encoded fields; parsed here only, for this plugin's routes.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 2048 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  app.get(
    '/unsubscribe',
    {
      config: { access: 'public' },
      // Checked by the handler, so that a bad link gets a page rather than a problem document.
      schema: { hide: true, querystring: linkSchema },
    },
    async (request, reply) => {
      const link = readLink(request.query);
      const valid = link ? await service.checkUnsubscribeLink(link.subscriberId, link.token) : false;
      void reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (!link || !valid) return reply.status(400).send(invalidUnsubscribeLinkPage());
      return reply.send(confirmUnsubscribePage(link.subscriberId, link.token));
    },
  );

  app.post(
    '/unsubscribe',
    { config: { access: 'public' }, schema: { hide: true, body: linkSchema } },
    async (request, reply) => {
      const link = readLink(request.body);
      const outcome = link
        ? await service.unsubscribe(link.subscriberId, link.token)
        : { status: 'invalid' as const };
      void reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (outcome.status === 'invalid') return reply.status(400).send(invalidUnsubscribeLinkPage());
      return reply.send(unsubscribedPage(outcome.organisationName));
    },
  );
};
