import { idParamsSchema } from '@back-office/contract/common';
import { bulkEmailPreviewSchema, bulkEmailQueuedResultSchema } from '@back-office/contract/mail';
import {
  emailQueuedResultSchema,
  subscriberEmailListInputSchema,
  subscriberEmailPreviewInputSchema,
} from '@back-office/contract/subscribers';
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
 * email (any signed-in user; both answer `202 {queued}` once the messages are in the outbox, the bulk
 * email with its `sendId`), the bulk email's preview and test, and the public unsubscribe link that the
 * bulk emails carry (a confirmation page on GET; POST unsubscribes, one click from a mail client).
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
        response: { 202: bulkEmailQueuedResultSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.sendToList(request.body, currentUser(request))),
  );

  app.post(
    '/api/subscribers/email/list/preview',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'How many the bulk email reaches and skips (no address, unsubscribed, deleted), and the first message',
        body: subscriberEmailPreviewInputSchema,
        response: { 200: bulkEmailPreviewSchema },
      },
    },
    (request) => service.previewList(request.body),
  );

  app.post(
    '/api/subscribers/email/list/test',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: "Queue the first recipient's message of the bulk email to the signed-in user, as a test",
        body: subscriberEmailListInputSchema,
        response: { 202: emailQueuedResultSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.sendTestOfList(request.body, currentUser(request))),
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
  // A one-click unsubscribe (RFC 8058) may post `List-Unsubscribe=One-Click` as multipart form data;
  // its link is in the URL, so the body is not read.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 2048 }, (_r, _b, done) => {
    done(null, {});
  });

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

  // The confirmation form posts the link's fields; a mail client's one-click unsubscribe (RFC 8058,
  // `List-Unsubscribe-Post`) posts to the link itself, fields in the query.
  app.post(
    '/unsubscribe',
    {
      config: { access: 'public' },
      schema: { hide: true, body: linkSchema.optional(), querystring: linkSchema },
    },
    async (request, reply) => {
      const link = readLink(request.query.s !== undefined ? request.query : (request.body ?? {}));
      const outcome = link
        ? await service.unsubscribe(link.subscriberId, link.token)
        : { status: 'invalid' as const };
      void reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (outcome.status === 'invalid') return reply.status(400).send(invalidUnsubscribeLinkPage());
      return reply.send(unsubscribedPage(outcome.organisationName));
    },
  );
};
