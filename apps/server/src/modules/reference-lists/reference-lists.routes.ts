import { idParamsSchema } from '@back-office/contract/common';
import {
  referenceItemInputSchemas,
  referenceItemListSchema,
  referenceItemSchema,
} from '@back-office/contract/reference-lists';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { REFERENCE_LISTS } from './reference-lists.definitions.ts';
import type { ReferenceListsService } from './reference-lists.service.ts';

/**
 * `GET`, `POST`, `PATCH /{id}`, `DELETE /{id}` for each of `/api/subs`, `/api/cats`, `/api/ctries`,
 * `/api/pmethods`, `/api/currencies`, `/api/tags` (part 1 §7 Reference data). Any signed-in user.
 */
export const referenceListsRoutes: FastifyPluginAsyncZod<{
  referenceListsService: ReferenceListsService;
}> = async (app, { referenceListsService: service }) => {
  for (const definition of REFERENCE_LISTS) {
    const body = referenceItemInputSchemas[definition.key];
    const tags = [`reference lists: ${definition.plural}`];

    app.get(
      definition.path,
      {
        config: { access: 'signed-in' },
        schema: {
          tags,
          summary: `List the ${definition.plural}`,
          response: { 200: referenceItemListSchema },
        },
      },
      () => service.list(definition),
    );

    app.post(
      definition.path,
      {
        config: { access: 'signed-in' },
        schema: {
          tags,
          summary: `Add a ${definition.singular}`,
          body,
          response: { 201: referenceItemSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(definition, request.body, currentUser(request))),
    );

    app.patch(
      `${definition.path}/:id`,
      {
        config: { access: 'signed-in' },
        schema: {
          tags,
          summary: `Rename a ${definition.singular}`,
          params: idParamsSchema,
          body,
          response: { 200: referenceItemSchema },
        },
      },
      (request) => service.update(definition, request.params.id, request.body, currentUser(request)),
    );

    app.delete(
      `${definition.path}/:id`,
      {
        config: { access: 'signed-in' },
        schema: {
          tags,
          summary: `Delete a ${definition.singular} that no record uses`,
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.remove(definition, request.params.id, currentUser(request));
        return reply.status(204).send(null);
      },
    );
  }
};
