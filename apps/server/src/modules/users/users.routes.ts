import { idParamsSchema } from '@back-office/contract/common';
import {
  changePasswordInputSchema,
  createUserInputSchema,
  updateUserInputSchema,
  userListSchema,
  userSchema,
} from '@back-office/contract/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { withRetryAfter } from '../../http/retry-after.ts';
import type { UsersService } from './users.service.ts';

/** Users endpoints (part 1 §7 Users). Administrator only, except reading one's own record and changing one's own password. */
export const usersRoutes: FastifyPluginAsyncZod<{ usersService: UsersService }> = async (
  app,
  { usersService },
) => {
  app.get(
    '/api/users',
    {
      config: { access: 'administrator' },
      schema: { tags: ['users'], summary: 'List staff accounts', response: { 200: userListSchema } },
    },
    () => usersService.listUsers(),
  );

  app.get(
    '/api/users/:id',
    {
      config: { access: 'self-or-administrator' },
      schema: {
        tags: ['users'],
        summary: 'One staff account',
        params: idParamsSchema,
        response: { 200: userSchema },
      },
    },
    (request) => usersService.getUser({ id: request.params.id }),
  );

  app.post(
    '/api/users',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['users'],
        summary: 'Create a staff account and email its set-password link',
        body: createUserInputSchema,
        response: { 201: userSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await usersService.createUser({ input: request.body, actor: currentUser(request) })),
  );

  app.patch(
    '/api/users/:id',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['users'],
        summary: 'Update a staff account',
        params: idParamsSchema,
        body: updateUserInputSchema,
        response: { 200: userSchema },
      },
    },
    (request) =>
      usersService.updateUser({ id: request.params.id, input: request.body, actor: currentUser(request) }),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['users'],
        summary: 'Delete a staff account',
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await usersService.deleteUser({ id: request.params.id, actor: currentUser(request) });
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/api/users/password/:id',
    {
      config: { access: 'self-or-administrator' },
      schema: {
        tags: ['users'],
        summary: 'Set a new password (own account, or any as Administrator)',
        params: idParamsSchema,
        body: changePasswordInputSchema,
        response: { 200: userSchema },
      },
    },
    (request, reply) =>
      withRetryAfter(reply, () =>
        usersService.changePassword({
          id: request.params.id,
          input: request.body,
          actor: currentUser(request),
          address: request.ip,
        }),
      ),
  );
};
