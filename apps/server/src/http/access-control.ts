import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { createForbiddenError, createUnauthenticatedError } from '../lib/errors.ts';
import type { AuthService, AuthUser } from '../modules/auth/auth.service.ts';

/**
 * Who may call a route. Every `/api` and `/auth` route must declare one in `config.access`:
 * - `public`: anyone;
 * - `access-token`: a valid access token (`/auth/userinfo`);
 * - `signed-in`: a valid id token;
 * - `administrator`: a valid id token of an Administrator;
 * - `self-or-administrator`: an Administrator, or the user whose id is the `:id` path parameter.
 */
export type AccessRule = 'public' | 'access-token' | 'signed-in' | 'administrator' | 'self-or-administrator';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

/**
 * A route and the rule it declares, as registered. `schema` is the route's own (zod `params`,
 * `querystring`, `body`): the bad-input tests derive malformed requests from it.
 */
export type DeclaredRoute = { method: string; url: string; access: AccessRule; schema?: FastifySchema };

const routeTables = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every `/api` and `/auth` route of an app with its access rule: the table the authorisation tests walk. */
export function declaredRoutes(app: FastifyInstance): DeclaredRoute[] {
  return [...(routeTables.get(app) ?? [])];
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw createUnauthenticatedError('A bearer token is required.');
  return match[1];
}

/**
 * Enforces each route's {@link AccessRule} before anything else runs (401 before 400), and
 * refuses to start when an `/api` or `/auth` route declares no rule.
 */
export function registerAccessControl(app: FastifyInstance, { authService }: { authService: AuthService }) {
  app.decorateRequest('user', null);
  const table: DeclaredRoute[] = [];
  routeTables.set(app, table);

  app.addHook('onRoute', (route) => {
    const guarded = route.url.startsWith('/api/') || route.url.startsWith('/auth/');
    const isDocs = route.url.startsWith('/api/docs');
    if (!guarded || isDocs) return;
    const access = route.config?.access;
    if (!access)
      throw new Error(`Route ${route.method} ${route.url} declares no access rule (config.access)`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') table.push({ method, url: route.url, access, schema: route.schema });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    if (access === 'access-token') {
      request.user = await authService.authenticate(bearerToken(request), 'access');
      return;
    }
    const user = await authService.authenticate(bearerToken(request), 'id');
    request.user = user;
    if (access === 'administrator' && user.role !== 'Administrator') {
      throw createForbiddenError('This needs the Administrator role.');
    }
    if (access === 'self-or-administrator' && user.role !== 'Administrator') {
      const params = request.params as { id?: string };
      if (String(user.id) !== params.id)
        throw createForbiddenError('You may only do this for your own account.');
    }
  });
}

/** The signed-in user of a request whose route is not `public`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw createUnauthenticatedError('A bearer token is required.');
  return request.user;
}
