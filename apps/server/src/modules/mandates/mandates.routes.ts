import { idParamsSchema } from '@back-office/contract/common';
import {
  mandateChangesSchema,
  mandateListSchema,
  mandateReadSchema,
  mandateSchema,
  revokeMandateSchema,
} from '@back-office/contract/mandates';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import type { MandatesService } from './mandates.service.ts';

/**
 * SEPA direct-debit mandates of subscribers (contract `mandates`; not in the spec; docs/decisions/027).
 * Any signed-in user, as for every other write on a subscriber. Dates are `YYYY-MM-DD`; errors are
 * problem documents: 400 naming the field, 404 for an unknown subscriber or mandate, 409 for a RUM
 * taken, a used mandate deleted, or a mandate no longer active changed or revoked.
 */
export const mandatesRoutes: FastifyPluginAsyncZod<{ mandatesService: MandatesService }> = async (
  app,
  { mandatesService: service },
) => {
  const tags = ['mandates'];

  app.get(
    '/api/subscribers/:id/mandates',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: "The subscriber's SEPA mandates, most recently signed first (404 for an unknown subscriber)",
        params: idParamsSchema,
        response: { 200: mandateListSchema },
      },
    },
    (request) => service.list(request.params.id),
  );

  app.post(
    '/api/subscribers/:id/mandates',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Add a SEPA mandate {rum, iban, bic?, signedOn, type} to the subscriber: 201; 409 when the RUM is taken',
        params: idParamsSchema,
        body: mandateSchema,
        response: { 201: mandateReadSchema },
      },
    },
    async (request, reply) => {
      const created = await service.create(request.params.id, request.body, currentUser(request));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/api/mandates/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Change an active mandate; a new RUM or IBAN of a used one is recorded as an amendment for the next collection',
        params: idParamsSchema,
        body: mandateChangesSchema,
        response: { 200: mandateReadSchema },
      },
    },
    (request) => service.update(request.params.id, request.body, currentUser(request)),
  );

  app.delete(
    '/api/mandates/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Delete a mandate never used: 204; 409 for a used one (revoke it instead)',
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id, currentUser(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/mandates/:id/revoke',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Revoke an active mandate {reason}: it can no longer be collected',
        params: idParamsSchema,
        body: revokeMandateSchema,
        response: { 200: mandateReadSchema },
      },
    },
    (request) => service.revoke(request.params.id, request.body.reason, currentUser(request)),
  );
};
