import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../test/context.ts';
import { registerAccessControl } from './access-control.ts';
import { registerErrorHandler } from './error-handler.ts';
import { HTTP_LIMITS } from './limits.ts';

const ctx = useTestApp();

describe('HTTP layer', () => {
  it('answers health and readiness', async () => {
    expect((await ctx.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 on /readyz when the database does not answer', async () => {
    const app = await ctx.build({
      database: {
        ...ctx.database,
        ping: async () => {
          throw new Error('connection refused');
        },
      },
    });
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('database.unavailable');
  });

  it('answers unknown routes with a 404 problem', async () => {
    const response = await ctx.app.inject({ url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 404, title: 'Not Found', code: 'http.404' });
  });

  it('publishes the OpenAPI description at /api/docs', async () => {
    const response = await ctx.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const spec = response.json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/auth/login', '/api/users', '/api/users/{id}', '/api/users/password/{id}']),
    );
  });

  it('sends security headers', async () => {
    const response = await ctx.app.inject({ url: '/healthz' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('forbids inline and foreign scripts and framing on every kind of answer', async () => {
    for (const url of ['/healthz', '/api/users', '/unsubscribe', '/api/nothing-here', '/']) {
      const response = await ctx.app.inject({ url });
      const policy = String(response.headers['content-security-policy']);
      const directives = new Map(
        policy.split(';').map((part) => {
          const [name = '', ...values] = part.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get('script-src'), url).toEqual(["'self'"]);
      expect(directives.get('default-src'), url).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(directives.get('object-src'), url).toEqual(["'none'"]);
      expect(policy, url).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('refuses to register an API route that declares no access rule', () => {
    const app = Fastify();
    registerAccessControl(app, { authService: {} as never });
    expect(() => app.get('/api/forgotten', () => 'oops')).toThrow('declares no access rule');
    expect(() => app.get('/api/declared', { config: { access: 'public' } }, () => 'fine')).not.toThrow();
  });

  it('answers 503 when the statement timeout stopped the work, saying nothing was changed', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    // As Drizzle hands over what node-postgres reports when `statement_timeout` cancels a statement.
    const timedOut = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    app.get('/api/slow', () => {
      throw new DrizzleQueryError('delete from subscribers where id = any($1)', [[1, 2]], timedOut);
    });
    const response = await app.inject({ url: '/api/slow' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'database.timeout',
      detail: expect.stringContaining('nothing was changed'),
    });
    // The query's values stay out of the answer.
    expect(response.body).not.toContain('subscribers');
  });

  it('tells browsers and proxies to keep no /api or /auth answer', async () => {
    const { id_token } = await login(ctx);
    const answers = [
      await ctx.app.inject({ url: '/api/users', headers: bearer(id_token) }),
      await ctx.app.inject({ url: '/api/users' }),
      await ctx.app.inject({ url: '/api/nothing-here' }),
      await ctx.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'x@example.org', password: 'nope' },
      }),
      await ctx.app.inject({ url: '/auth/jwks' }),
    ];
    for (const response of answers) expect(response.headers['cache-control'], response.body).toBe('no-store');
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy, so throttling cannot be dodged', async () => {
    const attempt = (app: typeof ctx.app, forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: '10.0.0.7',
        headers: { 'x-forwarded-for': forwardedFor },
        payload: { email: 'nobody@example.org', password: 'wrong-password' },
      });
    const direct = await ctx.build({ config: { LOGIN_RATE_LIMIT_PER_MINUTE: '2' } });
    const spoofed = [];
    for (let i = 1; i <= 3; i++) spoofed.push((await attempt(direct, `203.0.113.${i}`)).statusCode);
    expect(spoofed).toEqual([401, 401, 429]);

    const behindProxy = await ctx.build({
      config: { LOGIN_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8' },
    });
    const forwarded = [];
    for (let i = 1; i <= 3; i++) forwarded.push((await attempt(behindProxy, `203.0.113.${i}`)).statusCode);
    expect(forwarded).toEqual([401, 401, 401]);
  });

  it('refuses a large JSON body except where a file is uploaded', async () => {
    const { id_token } = await login(ctx);
    const big = 'x'.repeat(HTTP_LIMITS.bodyLimitBytes + 1);
    const note = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(id_token),
      payload: { fullName: big, email: 'big@example.org', role: 'User' },
    });
    expect(note.statusCode).toBe(413);
    expect(note.headers['content-type']).toContain('application/problem+json');
    const settings = (await ctx.app.inject({ url: '/api/settings', headers: bearer(id_token) })).json();
    const withLargeField = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(id_token),
      payload: { ...settings, padding: big },
    });
    expect(withLargeField.statusCode).not.toBe(413);
  });

  it('closes connections whose headers or request arrive too slowly, and idle keep-alives', () => {
    expect(ctx.app.server.headersTimeout).toBe(HTTP_LIMITS.headersTimeoutMs);
    expect(ctx.app.server.requestTimeout).toBe(HTTP_LIMITS.requestTimeoutMs);
    expect(ctx.app.server.keepAliveTimeout).toBe(HTTP_LIMITS.keepAliveTimeoutMs);
    expect(HTTP_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(HTTP_LIMITS.requestTimeoutMs);
  });
});
