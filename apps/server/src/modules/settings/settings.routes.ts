import { settingsSchema } from '@back-office/contract/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/access-control.ts';
import type { SettingsService } from './settings.service.ts';

/**
 * `GET /api/settings` (any signed-in user) and `PUT /api/settings` (Administrator). Not in the spec
 * (docs/spec/design.md §Layout: settings). `bodyLimit` (bytes) is the PUT's, which carries the logo as a
 * data URL (docs/decisions/011).
 */
export const settingsRoutes: FastifyPluginAsyncZod<{
  settingsService: SettingsService;
  bodyLimit: number;
}> = async (app, { settingsService: service, bodyLimit }) => {
  app.get(
    '/api/settings',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['settings'], summary: 'The organisation settings', response: { 200: settingsSchema } },
    },
    () => service.get(),
  );

  app.put(
    '/api/settings',
    {
      config: { access: 'administrator' },
      bodyLimit,
      schema: {
        tags: ['settings'],
        summary: 'Replace the organisation settings',
        body: settingsSchema,
        response: { 200: settingsSchema },
      },
    },
    (request) => service.save(request.body, currentUser(request)),
  );
};
