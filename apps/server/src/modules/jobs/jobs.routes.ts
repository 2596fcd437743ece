import { idParamsSchema } from '@back-office/contract/common';
import { jobListSchema, jobSchema } from '@back-office/contract/jobs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JobsService } from './jobs.service.ts';

/** The Jobs screen's calls (docs/decisions/013; not in the spec). Administrator only. */
export const jobsRoutes: FastifyPluginAsyncZod<{ jobsService: JobsService }> = async (
  app,
  { jobsService: service },
) => {
  const tags = ['jobs'];

  app.get(
    '/api/jobs',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'The repeating jobs, then the 50 newest others, with state and progress',
        response: { 200: jobListSchema },
      },
    },
    () => service.list(),
  );

  app.post(
    '/api/jobs/:id/cancel',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Cancel a queued or running job (not a repeating one)',
        params: idParamsSchema,
        response: { 202: jobSchema },
      },
    },
    async (request, reply) => reply.status(202).send(await service.cancel(request.params.id)),
  );
};
