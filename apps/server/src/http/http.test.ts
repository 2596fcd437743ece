import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { registerAccessControl } from './access-control.ts';

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

  it('forbids inline and foreign scripts and framing on every kind of answer (issue 8 §4)', async () => {
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
});
