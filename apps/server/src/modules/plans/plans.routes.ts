import { idParamsSchema } from '@back-office/contract/common';
import { planChangesSchema, planListSchema, planReadSchema, planSchema } from '@back-office/contract/plans';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import type { PlansService } from './plans.service.ts';

/**
 * Recurring gifts by SEPA direct debit of subscribers (contract `plans`; not in the spec;
 * docs/decisions/028, EPC SEPA Core Direct Debit rulebook). Any signed-in user, as for every other
 * write on a subscriber. Amounts are euros as numbers, dates `YYYY-MM-DD`; errors are problem
 * documents: 400 naming the field (`endOn` before `startOn`, unknown `categoryId`), 404 for an unknown
 * subscriber or plan, 409 `plans.mandate_unusable` naming `mandateId` (another subscriber's, revoked,
 * expired or one-off mandate) and 409 `plans.ended` for a change of an ended plan. A plan is never
 * deleted: it is ended.
 */
export const plansRoutes: FastifyPluginAsyncZod<{ plansService: PlansService }> = async (
  app,
  { plansService: service },
) => {
  const tags = ['plans'];

  app.get(
    '/api/subscribers/:id/plans',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          "The subscriber's recurring gifts, most recently started first (404 for an unknown subscriber)",
        params: idParamsSchema,
        response: { 200: planListSchema },
      },
    },
    (request) => service.list(request.params.id),
  );

  app.post(
    '/api/subscribers/:id/plans',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          'Add a recurring gift {amount, frequency, dayOfMonth, startOn, endOn?, mandateId, categoryId?}: 201; 409 when the mandate cannot carry it',
        params: idParamsSchema,
        body: planSchema,
        response: { 201: planReadSchema },
      },
    },
    async (request, reply) => {
      const created = await service.create(request.params.id, request.body, currentUser(request));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/api/plans/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Change, pause, resume or end (status) a recurring gift; 409 once it has ended',
        params: idParamsSchema,
        body: planChangesSchema,
        response: { 200: planReadSchema },
      },
    },
    (request) => service.update(request.params.id, request.body, currentUser(request)),
  );
};
