import { auditSearchQuerySchema, auditSearchResultSchema } from '@back-office/contract/audit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditService } from './audit.service.ts';

/** `GET /api/audit`: the audit trail, Administrators only. */
export const auditRoutes: FastifyPluginAsyncZod<{ auditService: AuditService }> = async (
  app,
  { auditService },
) => {
  app.get(
    '/api/audit',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['audit'],
        summary:
          'Changes to users, roles, products, reference lists and settings, newest first (filters: entityType, actor, from, to)',
        querystring: auditSearchQuerySchema,
        response: { 200: auditSearchResultSchema },
      },
    },
    (request) => auditService.search(request.query),
  );
};
