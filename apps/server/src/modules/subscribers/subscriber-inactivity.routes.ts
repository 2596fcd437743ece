import {
  inactiveSubscribersQuerySchema,
  inactiveSubscribersResultSchema,
} from '@back-office/contract/subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SubscriberInactivityService } from './subscriber-inactivity.service.ts';

/** `GET /api/subscribers/inactive`: the retention report (GDPR art. 5(1)(e)). Administrator only. */
export const subscriberInactivityRoutes: FastifyPluginAsyncZod<{
  subscriberInactivityService: SubscriberInactivityService;
}> = async (app, { subscriberInactivityService: service }) => {
  app.get(
    '/api/subscribers/inactive',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['subscribers'],
        summary:
          "Subscribers without activity (record change, donation or sale) for the settings' inactivityReportYears, oldest first; {count, years, models}",
        querystring: inactiveSubscribersQuerySchema,
        response: { 200: inactiveSubscribersResultSchema },
      },
    },
    (request) => service.list(request.query),
  );
};
