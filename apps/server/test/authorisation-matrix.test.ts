import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/access-control.ts';
import { bearer, createSignedInUser, login, useTestApp } from './context.ts';

const ctx = useTestApp();

/** A concrete URL for a route pattern: every parameter becomes `1` (a year parameter becomes 2025). */
function concrete(url: string) {
  return url.replace(/:year/g, '2025').replace(/:[A-Za-z]+/g, '1');
}

/** A token with the right shape and claims, signed with a key the server does not have. */
function forgedToken() {
  return new SignJWT({
    sid: 'forged',
    token_use: 'id',
    role: 'Administrator',
    email: 'x@example.org',
    name: 'X',
  })
    .setProtectedHeader({ alg: 'HS256', kid: '1' })
    .setSubject('1')
    .setIssuer('back-office')
    .setAudience('back-office')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('a-key-the-server-has-never-seen-000'));
}

describe('authorisation matrix, generated from the route table', () => {
  it('covers the API: every route declares a rule, and there are routes of each kind', () => {
    const routes = declaredRoutes(ctx.app);
    expect(routes.length).toBeGreaterThan(40);
    const kinds = new Set(routes.map((route) => route.access));
    for (const kind of ['public', 'access-token', 'signed-in', 'administrator', 'self-or-administrator']) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it('answers every route as its rule says, for every kind of caller', async () => {
    const user = await createSignedInUser(ctx, { email: 'matrix.user@example.org' });
    const forged = await forgedToken();
    const failures: string[] = [];

    for (const route of declaredRoutes(ctx.app)) {
      if (route.access === 'public') continue;
      // Fresh sessions for every route: some routes (logout, password changes) end sessions.
      const admin = await login(ctx);
      const userTokens = await login(ctx, 'matrix.user@example.org', 'user-password-1');
      const url = concrete(route.url);
      const call = (headers: Record<string, string>) =>
        ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers,
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
      const expect401 = async (label: string, headers: Record<string, string>) => {
        const response = await call(headers);
        if (response.statusCode !== 401)
          failures.push(`${route.method} ${route.url} ${label}: ${response.statusCode} (expected 401)`);
      };
      await expect401('without a token', {});
      await expect401('with a malformed token', { authorization: 'Bearer not-a-token' });
      await expect401('with a token signed by another key', bearer(forged));

      if (route.access === 'access-token') {
        await expect401('with an id token', bearer(admin.id_token));
        continue;
      }
      await expect401('with an access token', bearer(admin.access_token));

      // The user row is read each time, so the checks below hold whatever a previous call changed.
      const asUser = await call(bearer(userTokens.id_token));
      const userMayPass =
        route.access === 'signed-in' ||
        (route.access === 'self-or-administrator' && url.includes(`/${user.id}`));
      if (userMayPass && [401, 403].includes(asUser.statusCode)) {
        failures.push(`${route.method} ${route.url} as a User: ${asUser.statusCode} (expected to pass)`);
      }
      if (!userMayPass && asUser.statusCode !== 403) {
        failures.push(`${route.method} ${route.url} as a User: ${asUser.statusCode} (expected 403)`);
      }
      const asAdmin = await call(bearer(admin.id_token));
      if ([401, 403].includes(asAdmin.statusCode)) {
        failures.push(
          `${route.method} ${route.url} as an Administrator: ${asAdmin.statusCode} (expected to pass)`,
        );
      }
      if (asAdmin.statusCode >= 500)
        failures.push(`${route.method} ${route.url} as an Administrator: ${asAdmin.statusCode}`);
    }

    // An expired token: sign in, then move the clock past its lifetime.
    const expired = (await login(ctx)).id_token;
    ctx.clock.advance(2 * 3600 * 1000);
    for (const route of declaredRoutes(ctx.app).filter((candidate) => candidate.access !== 'public')) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: bearer(expired),
      });
      if (response.statusCode !== 401)
        failures.push(`${route.method} ${route.url} with an expired token: ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
