import { idParamsSchema } from '@back-office/contract/common';
import {
  historyEntrySchema,
  saveSubscriberInputSchema,
  subscriberSchema,
  subscriberSearchQuerySchema,
  subscriberSearchResultSchema,
} from '@back-office/contract/subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import type { SubscribersService } from './subscribers.service.ts';

/** Subscriber record, search and history endpoints (part 2 §7 Subscribers). Any signed-in user. */
export const subscribersRoutes: FastifyPluginAsyncZod<{ subscribersService: SubscribersService }> = async (
  app,
  { subscribersService: service },
) => {
  const tags = ['subscribers'];

  app.get(
    '/api/subscribers/',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Search subscribers; {count, models} sorted by last then first name',
        querystring: subscriberSearchQuerySchema,
        response: { 200: subscriberSearchResultSchema },
      },
    },
    (request) => service.search(request.query),
  );

  app.get(
    '/api/subscribers/new',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'A blank subscriber added by the signed-in user',
        response: { 200: subscriberSchema },
      },
    },
    (request) => service.blank(currentUser(request)),
  );

  app.get(
    '/api/subscribers/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'One subscriber (308 to the kept one for a subscriber merged into another)',
        params: idParamsSchema,
        response: { 200: subscriberSchema },
      },
    },
    async (request, reply) => {
      const opened = await service.open(request.params.id);
      if ('mergedInto' in opened) return reply.redirect(`/api/subscribers/${opened.mergedInto}`, 308);
      return opened.subscriber;
    },
  );

  app.post(
    '/api/subscribers',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Create a subscriber',
        body: saveSubscriberInputSchema,
        response: { 201: subscriberSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, currentUser(request))),
  );

  app.patch(
    '/api/subscribers/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Save a subscriber (409 when someone else saved it since `version`)',
        params: idParamsSchema,
        body: saveSubscriberInputSchema,
        response: { 200: subscriberSchema },
      },
    },
    (request) => service.update(request.params.id, request.body, currentUser(request)),
  );

  app.delete(
    '/api/subscribers/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Delete a subscriber (hidden; donations, sales and history kept)',
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id, currentUser(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/subscribers/:id/history',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'What was done to a subscriber, newest first',
        params: idParamsSchema,
        response: { 200: z.array(historyEntrySchema) },
      },
    },
    (request) => service.history(request.params.id),
  );
};
