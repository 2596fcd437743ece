import {
  loginInputSchema,
  loginResponseSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  userInfoSchema,
} from '@back-office/contract/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { withRetryAfter } from '../../http/retry-after.ts';
import type { AuthService } from './auth.service.ts';

/**
 * The built-in identity provider (docs/decisions/001). Login and reset are rate limited
 * per IP here and per address in the service.
 */
export const authRoutes: FastifyPluginAsyncZod<{
  authService: AuthService;
  loginRateLimitPerMinute: number;
}> = async (app, { authService, loginRateLimitPerMinute }) => {
  const perIp = { max: loginRateLimitPerMinute, timeWindow: '1 minute' };

  app.post(
    '/auth/login',
    {
      config: { access: 'public', rateLimit: perIp },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: loginInputSchema,
        response: { 200: loginResponseSchema },
      },
    },
    (request, reply) => withRetryAfter(reply, () => authService.login(request.body, { address: request.ip })),
  );

  app.get(
    '/auth/userinfo',
    {
      config: { access: 'access-token' },
      schema: {
        tags: ['auth'],
        summary: 'Who the access token belongs to',
        response: { 200: userInfoSchema },
      },
    },
    (request) => {
      const user = currentUser(request);
      return { sub: String(user.id), email: user.email, name: user.fullName };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['auth'], summary: 'End this session on the server', response: { 204: z.null() } },
    },
    async (request, reply) => {
      await authService.logout({ sessionId: currentUser(request).sessionId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: { access: 'public', rateLimit: perIp },
      schema: {
        tags: ['auth'],
        summary: 'Email a password reset link (answers 202 whether or not the address exists)',
        body: passwordResetRequestSchema,
        response: { 202: z.null() },
      },
    },
    async (request, reply) => {
      authService.requestPasswordReset(request.body, {
        onError: (error) => request.log.error({ err: error }, 'password reset request failed'),
      });
      return reply.status(202).send(null);
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      config: { access: 'public', rateLimit: perIp },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with an emailed single-use token',
        body: passwordResetConfirmSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await authService.confirmPasswordReset(request.body);
      return reply.status(204).send(null);
    },
  );
};
