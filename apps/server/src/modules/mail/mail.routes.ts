import { idParamsSchema } from '@back-office/contract/common';
import { bulkEmailRetryResultSchema, bulkEmailSendProgressSchema } from '@back-office/contract/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import type { MailService } from './mail.service.ts';

/**
 * The progress of a bulk email after it is sent, and the retry of its failed messages (part 2 §2.1
 * Subscribers, §2.5 Sales list screen: the Email Subscribers dialog).
 */
export const mailRoutes: FastifyPluginAsyncZod<{ mailService: MailService }> = async (
  app,
  { mailService: service },
) => {
  const tags = ['mail'];

  app.get(
    '/api/mail/sends/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'How many messages of a bulk email are queued, sent, failed and cancelled',
        params: idParamsSchema,
        response: { 200: bulkEmailSendProgressSchema },
      },
    },
    (request) => service.progress(request.params.id),
  );

  app.post(
    '/api/mail/sends/:id/retry',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Queue the failed messages of a bulk email again (its sender or an Administrator)',
        params: idParamsSchema,
        response: { 202: bulkEmailRetryResultSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.retryFailed(request.params.id, currentUser(request))),
  );
};
