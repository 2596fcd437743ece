import { PASSWORD_RULE_MESSAGES } from '@back-office/contract/auth';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createSignedInUser,
  login,
  passwordLinkToken,
  useTestApp,
} from '../../../test/context.ts';
import { MAX_RESET_EMAILS_PER_HOUR, SIGN_IN_THROTTLE } from './auth.service.ts';

const ctx = useTestApp();

describe('POST /auth/login', () => {
  it('returns an id token and an access token and records lastLogin', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const claims = decodeJwt(body.id_token);
    expect(claims).toMatchObject({ email: ADMIN_EMAIL, name: 'Administrator', role: 'Administrator' });
    expect(claims.sub).toMatch(/^\d+$/);
    expect(claims.exp).toBe(Math.floor(ctx.clock.now().getTime() / 1000) + 3600);

    const me = await ctx.app.inject({ url: `/api/users/${claims.sub}`, headers: bearer(body.id_token) });
    expect(me.json().lastLogin).toBe(ctx.clock.now().toISOString());
  });

  it('accepts the address in any case', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'ADMIN@Example.org', password: ADMIN_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 problem+json for a wrong password or an unknown address', async () => {
    for (const payload of [
      { email: ADMIN_EMAIL, password: 'wrong-password' },
      { email: 'nobody@example.org', password: ADMIN_PASSWORD },
    ]) {
      const response = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload });
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 401, code: 'auth.invalid_credentials' });
    }
  });

  it('answers 400 naming the field for a malformed email or a short password', async () => {
    const badEmail = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'not an email', password: ADMIN_PASSWORD },
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().errors).toEqual([{ path: 'email', message: 'Valid email is required' }]);

    const shortPassword = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN_EMAIL, password: 'short' },
    });
    expect(shortPassword.statusCode).toBe(400);
    expect(shortPassword.json().errors[0].path).toBe('password');
  });

  it('answers 400, not 500, for a body that is not JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });

  /** A sign-in attempt from the client address `from`. */
  const attempt = (from: string, password: string, email = ADMIN_EMAIL) =>
    ctx.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: from, payload: { email, password } });

  it('locks an account from the address that failed 5 times for 15 minutes, while its owner signs in from elsewhere', async () => {
    const attacker = '203.0.113.66';
    for (let i = 0; i < SIGN_IN_THROTTLE.failuresPerAccountAndAddress; i += 1) {
      expect((await attempt(attacker, `wrong-password-${i}`)).statusCode).toBe(401);
    }
    const blocked = await attempt(attacker, ADMIN_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      code: 'auth.too_many_attempts',
      detail: 'Too many failed sign-ins. Try again in 15 minutes.',
    });
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60);
    // The owner, from the office, is not locked out by the attacker.
    expect((await attempt('198.51.100.10', ADMIN_PASSWORD)).statusCode).toBe(200);

    ctx.clock.advance(15 * 60 * 1000 + 1000);
    expect((await attempt(attacker, ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('doubles each repeated lockout up to 24 hours, and writes every lockout in the audit trail', async () => {
    const attacker = '203.0.113.67';
    const lockouts: number[] = [];
    for (let round = 0; round < 9; round += 1) {
      for (let i = 0; i < SIGN_IN_THROTTLE.failuresPerAccountAndAddress; i += 1)
        await attempt(attacker, 'wrong-password');
      const blocked = await attempt(attacker, 'wrong-password');
      expect(blocked.statusCode).toBe(429);
      const seconds = Number(blocked.headers['retry-after']);
      lockouts.push(seconds / 60);
      ctx.clock.advance(seconds * 1000 + 1000);
    }
    expect(lockouts).toEqual([15, 30, 60, 120, 240, 480, 960, 1440, 1440]);

    const admin = await login(ctx);
    const trail = await ctx.app.inject({
      url: '/api/audit?entityType=sign_in&listlength=50',
      headers: bearer(admin.id_token),
    });
    expect(trail.statusCode).toBe(200);
    const events = trail.json().models as Array<{
      entityType: string;
      entityLabel: string;
      after: Record<string, unknown>;
    }>;
    expect(events).toHaveLength(9);
    expect(events[0]).toMatchObject({
      entityType: 'sign_in',
      entityLabel: ADMIN_EMAIL,
      after: { email: ADMIN_EMAIL, clientAddress: attacker, minutes: 1440 },
    });
  });

  it('locks an address that fails against many accounts, for every account', async () => {
    const sprayer = '203.0.113.68';
    for (let i = 0; i < SIGN_IN_THROTTLE.failuresPerAddress; i += 1) {
      await attempt(sprayer, 'Summer2026!', `person${i}@example.org`);
    }
    const blocked = await attempt(sprayer, ADMIN_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect((await attempt('198.51.100.11', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('lifts an address lockout after 15 minutes and audits it under the address', async () => {
    const sprayer = '203.0.113.69';
    for (let i = 0; i < SIGN_IN_THROTTLE.failuresPerAddress; i += 1) {
      await attempt(sprayer, 'Summer2026!', `person${i}@example.org`);
    }
    const blocked = await attempt(sprayer, ADMIN_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60);

    ctx.clock.advance(15 * 60 * 1000 + 1000);
    expect((await attempt(sprayer, ADMIN_PASSWORD)).statusCode).toBe(200);

    const admin = await login(ctx);
    const trail = await ctx.app.inject({
      url: '/api/audit?entityType=sign_in&listlength=50',
      headers: bearer(admin.id_token),
    });
    const events = trail.json().models as Array<{ entityLabel: string; after: Record<string, unknown> }>;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityLabel: sprayer,
      after: { email: null, clientAddress: sprayer, minutes: 15 },
    });
  });

  it('starts again at 15 minutes when a lockout comes more than a day after the last one ended', async () => {
    const attacker = '203.0.113.70';
    const lockFor = async () => {
      for (let i = 0; i < SIGN_IN_THROTTLE.failuresPerAccountAndAddress; i += 1)
        await attempt(attacker, 'wrong-password');
      const blocked = await attempt(attacker, 'wrong-password');
      expect(blocked.statusCode).toBe(429);
      return Number(blocked.headers['retry-after']) / 60;
    };
    expect(await lockFor()).toBe(15);
    ctx.clock.advance(16 * 60 * 1000);
    expect(await lockFor()).toBe(30);
    ctx.clock.advance(31 * 60 * 1000 + SIGN_IN_THROTTLE.repeatWindowMs);
    expect(await lockFor()).toBe(15);
  });

  it('starts counting afresh after a successful sign-in', async () => {
    const office = '198.51.100.12';
    for (let i = 0; i < SIGN_IN_THROTTLE.failuresPerAccountAndAddress - 1; i += 1)
      await attempt(office, 'typo-password');
    expect((await attempt(office, ADMIN_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < SIGN_IN_THROTTLE.failuresPerAccountAndAddress - 1; i += 1)
      await attempt(office, 'typo-password');
    expect((await attempt(office, ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('rate limits an IP address per minute', async () => {
    const app = await ctx.build({ config: { LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: `someone${attempt}@example.org`, password: 'wrong-password' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('tokens', () => {
  it('are refused on /api when missing, malformed, forged, expired or of the wrong kind', async () => {
    const { id_token, access_token } = await login(ctx);
    // Both verified once first: a token kept as verified is refused all the same where it does not
    // belong, and once it has expired.
    expect((await ctx.app.inject({ url: '/api/users', headers: bearer(id_token) })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/auth/userinfo', headers: bearer(access_token) })).statusCode).toBe(
      200,
    );
    const forged = await new SignJWT({ sid: 'x', token_use: 'id', role: 'Administrator' })
      .setProtectedHeader({ alg: 'HS256', kid: '1' })
      .setSubject('1')
      .setIssuer('back-office')
      .setAudience('back-office')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-123'));
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: `Basic ${id_token}` },
      bearer(forged),
      bearer(access_token),
    ];
    for (const headers of cases) {
      const response = await ctx.app.inject({ url: '/api/users', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.json().code).toBe('auth.unauthenticated');
    }
    ctx.clock.advance(3601 * 1000);
    const expired = await ctx.app.inject({ url: '/api/users', headers: bearer(id_token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({
      code: 'auth.unauthenticated',
      detail: 'The session has expired.',
    });
  });

  it('survive a restart: an app built later on the same database accepts them', async () => {
    const { id_token } = await login(ctx);
    const restarted = await ctx.build();
    const response = await restarted.inject({ url: '/api/users', headers: bearer(id_token) });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /auth/userinfo', () => {
  it('tells who the access token belongs to', async () => {
    const { access_token, id_token } = await login(ctx);
    const response = await ctx.app.inject({ url: '/auth/userinfo', headers: bearer(access_token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      sub: decodeJwt(id_token).sub,
      email: ADMIN_EMAIL,
      name: 'Administrator',
    });

    const withIdToken = await ctx.app.inject({ url: '/auth/userinfo', headers: bearer(id_token) });
    expect(withIdToken.statusCode).toBe(401);
  });
});

describe('POST /auth/logout', () => {
  it('ends the session on the server', async () => {
    const { id_token, access_token } = await login(ctx);
    const response = await ctx.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(id_token) });
    expect(response.statusCode).toBe(204);
    expect((await ctx.app.inject({ url: '/api/users', headers: bearer(id_token) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/auth/userinfo', headers: bearer(access_token) })).statusCode).toBe(
      401,
    );
  });
});

describe('password reset', () => {
  it('answers 202 for an unknown address and sends nothing', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: 'nobody@example.org' },
    });
    expect(response.statusCode).toBe(202);
    await ctx.app.workSettled();
    expect(await ctx.worker.runOnce()).toBe(0);
  });

  it('answers 400 naming the field for a malformed address', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ path: 'email', message: 'Valid email is required' });
  });

  it('emails a single-use link that sets a new password and ends every session', async () => {
    const before = await login(ctx);
    const requested = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: ADMIN_EMAIL },
    });
    expect(requested.statusCode).toBe(202);
    await ctx.app.workSettled();
    expect(await ctx.worker.runOnce()).toBe(1);
    expect(ctx.transport.sent[0]).toMatchObject({
      toAddress: ADMIN_EMAIL,
      subject: 'Reset your back office password',
    });
    expect(ctx.transport.sent[0]?.textBody).toContain('http://app.test/#/password-reset/confirm?token=');

    const token = await passwordLinkToken(ctx, ADMIN_EMAIL);
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'a-brand-new-password' },
    });
    expect(confirmed.statusCode).toBe(204);
    expect((await ctx.app.inject({ url: '/api/users', headers: bearer(before.id_token) })).statusCode).toBe(
      401,
    );
    await expect(login(ctx, ADMIN_EMAIL, ADMIN_PASSWORD)).rejects.toThrow('401');
    await expect(login(ctx, ADMIN_EMAIL, 'a-brand-new-password')).resolves.toBeTruthy();

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'yet-another-password' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('auth.invalid_password_token');
  });

  it('refuses an expired link, an unknown token and a short password', async () => {
    await ctx.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: ADMIN_EMAIL } });
    const token = await passwordLinkToken(ctx, ADMIN_EMAIL);

    const short = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors[0].path).toBe('newPassword');

    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token: 'not-a-real-token', newPassword: 'a-long-enough-password' },
    });
    expect(unknown.statusCode).toBe(400);

    ctx.clock.advance(60 * 60 * 1000 + 1);
    const expired = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'a-long-enough-password' },
    });
    expect(expired.statusCode).toBe(400);
  });

  it('refuses a common password or the email through a reset link, keeping the link usable', async () => {
    await ctx.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: ADMIN_EMAIL } });
    const token = await passwordLinkToken(ctx, ADMIN_EMAIL);
    const confirm = (newPassword: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/auth/password-reset/confirm',
        payload: { token, newPassword },
      });

    for (const [newPassword, message] of [
      ['Password123', PASSWORD_RULE_MESSAGES.common],
      ['qwertyuiop', PASSWORD_RULE_MESSAGES.common],
      ['ADMIN@example.org', PASSWORD_RULE_MESSAGES.email],
    ] as const) {
      const refused = await confirm(newPassword);
      expect(refused.statusCode).toBe(400);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({
        code: 'validation.password_rejected',
        errors: [{ path: 'newPassword', message }],
      });
      await expect(login(ctx, ADMIN_EMAIL, newPassword)).rejects.toThrow('401');
    }
    await expect(login(ctx, ADMIN_EMAIL, ADMIN_PASSWORD)).resolves.toBeTruthy();
    expect((await confirm('a-brand-new-password')).statusCode).toBe(204);
  });

  it("refuses the email's part before @ as the first password of a new account", async () => {
    const admin = await login(ctx);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(admin.id_token),
      payload: { fullName: 'Jeanne Rivière', email: 'jeanne.riviere@example.org', role: 'User' },
    });
    const token = await passwordLinkToken(ctx, 'jeanne.riviere@example.org');
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'Jeanne.Riviere' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ path: 'newPassword', message: PASSWORD_RULE_MESSAGES.email }]);
    const short = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'nine-char' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([
      { path: 'newPassword', message: 'The password must have at least 10 characters.' },
    ]);
    await expect(login(ctx, 'jeanne.riviere@example.org', 'Jeanne.Riviere')).rejects.toThrow('401');
  });

  it('lets a new account choose its first password through the invitation link', async () => {
    const { tokens } = await createSignedInUser(ctx, { email: 'new.person@example.org' });
    expect(decodeJwt(tokens.id_token)).toMatchObject({ email: 'new.person@example.org', role: 'User' });
  });
});

describe('password reset requests', () => {
  const ask = (email: string) =>
    ctx.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email } });

  it('emails at most 3 reset links an hour to one account, answering every request alike', async () => {
    for (let i = 0; i < MAX_RESET_EMAILS_PER_HOUR + 2; i += 1)
      expect((await ask(ADMIN_EMAIL)).statusCode).toBe(202);
    await ctx.app.workSettled();
    expect(await ctx.worker.runOnce()).toBe(MAX_RESET_EMAILS_PER_HOUR);

    ctx.clock.advance(60 * 60 * 1000 + 1000);
    expect((await ask(ADMIN_EMAIL)).statusCode).toBe(202);
    await ctx.app.workSettled();
    expect(await ctx.worker.runOnce()).toBe(1);
  });

  it('sends no more than 3 when many requests arrive at once', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask(ADMIN_EMAIL)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(202));
    await ctx.app.workSettled();
    expect(await ctx.worker.runOnce()).toBe(MAX_RESET_EMAILS_PER_HOUR);
  });
});
