import { randomBytes } from 'node:crypto';
import type { Job } from '@back-office/contract/jobs';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, bearer, login, useTestApp } from '../../../test/context.ts';
import { queryRows } from '../../db/client.ts';
import { SIGN_IN_PURGE_INTERVAL_MS } from './auth.module.ts';
import { createAuthRepository } from './auth.repository.ts';
import { SIGN_IN_RECORDS_KEPT_MS } from './auth.service.ts';
import { createTokenService, UNKNOWN_KEY_RELOAD_INTERVAL_MS } from './tokens.ts';

const ctx = useTestApp();
const HOUR = 60 * 60 * 1000;

async function rowCount(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql.raw(`select count(*)::int as n from ${table}`),
  );
  return row?.n ?? 0;
}

describe('the scheduled purge of sign-in records', () => {
  it('deletes old failures, ended sessions and used links, and keeps what is still in use', async () => {
    const repository = createAuthRepository();
    const db = ctx.database.db;
    const now = ctx.clock.now();
    const old = new Date(now.getTime() - SIGN_IN_RECORDS_KEPT_MS - HOUR);
    const recent = new Date(now.getTime() - HOUR);
    await repository.recordLoginFailure(db, { email: 'a@example.org', address: '203.0.113.1', at: old });
    await repository.recordLoginFailure(db, { email: 'a@example.org', address: '203.0.113.1', at: recent });
    await repository.createSession(db, { id: 'expired-long-ago', userId: 1, expiresAt: old });
    await repository.createSession(db, {
      id: 'still-open',
      userId: 1,
      expiresAt: new Date(now.getTime() + HOUR),
    });
    const link = (tokenHash: string, expiresAt: Date) =>
      repository.insertPasswordToken(db, {
        userId: 1,
        tokenHash,
        purpose: 'reset',
        createdAt: old,
        expiresAt,
      });
    await link('expired-link', old);
    await link('live-link', new Date(now.getTime() + HOUR));
    await repository.lockScope(db, {
      scope: 'address:203.0.113.1',
      now: old,
      baseMs: 15 * 60 * 1000,
      maxMs: 24 * HOUR,
      repeatWindowMs: 24 * HOUR,
    });
    const before = { sessions: await rowCount('sessions'), links: await rowCount('password_tokens') };

    const purged = await repository.purgeExpired(db, {
      before: new Date(now.getTime() - SIGN_IN_RECORDS_KEPT_MS),
    });
    expect(purged).toEqual({ failures: 1, lockouts: 1, sessions: 1, links: 1 });
    expect(await rowCount('login_failures')).toBe(1);
    expect(await rowCount('login_lockouts')).toBe(0);
    expect(await rowCount('sessions')).toBe(before.sessions - 1);
    expect(await rowCount('password_tokens')).toBe(before.links - 1);
    // The signed-in Administrator's session is untouched.
    const { id_token } = await login(ctx);
    expect((await ctx.app.inject({ url: '/api/users', headers: bearer(id_token) })).statusCode).toBe(200);
  });

  it('runs once an hour as a repeating job, however often the runner polls', async () => {
    const { id_token } = await login(ctx);
    const first = await ctx.app.jobs.runDue();
    expect(first).toHaveLength(1);
    expect(await ctx.app.jobs.runDue()).toEqual([]);
    const jobs = (await ctx.app.inject({ url: '/api/jobs', headers: bearer(id_token) })).json() as Job[];
    const purge = jobs.find((job) => job.kind === 'auth.purge');
    expect(purge).toMatchObject({ state: 'queued', repeats: true, cancellable: false, attempts: 0 });
    const wait = Date.parse(purge?.runAfter ?? '') - Date.parse(purge?.finishedAt ?? '');
    expect(wait).toBe(SIGN_IN_PURGE_INTERVAL_MS);
  });
});

describe('tokens naming an unknown signing key', () => {
  it('reload the keys at most once a minute, however many arrive', async () => {
    const repository = createAuthRepository();
    let loads = 0;
    const counting = {
      ...repository,
      listSigningKeys: (db: Parameters<typeof repository.listSigningKeys>[0]) => {
        loads += 1;
        return repository.listSigningKeys(db);
      },
    };
    const tokens = createTokenService({
      db: ctx.database.db,
      authRepository: counting,
      clock: ctx.clock,
      ttlSeconds: 3600,
    });
    await tokens.ensureSigningKey();
    const issued = await tokens.issue({
      userId: 1,
      sessionId: 's',
      email: ADMIN_EMAIL,
      name: 'Admin',
      role: 'Administrator',
    });
    const loadsAfterStart = loads;

    const forged = (kid: string) =>
      new SignJWT({ sid: 's', token_use: 'id' })
        .setProtectedHeader({ alg: 'HS256', kid })
        .setSubject('1')
        .setIssuer('back-office')
        .setAudience('back-office')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(randomBytes(32));
    for (let i = 0; i < 20; i += 1) {
      await expect(tokens.verify(await forged(String(1000 + i)), 'id')).rejects.toMatchObject({
        status: 401,
      });
    }
    await expect(tokens.verify(await forged('not-a-key-id'), 'id')).rejects.toMatchObject({ status: 401 });
    expect(loads - loadsAfterStart).toBeLessThanOrEqual(1);

    ctx.clock.advance(UNKNOWN_KEY_RELOAD_INTERVAL_MS + 1);
    await expect(tokens.verify(await forged('2000'), 'id')).rejects.toMatchObject({ status: 401 });
    await expect(tokens.verify(await forged('2001'), 'id')).rejects.toMatchObject({ status: 401 });
    expect(loads - loadsAfterStart).toBeLessThanOrEqual(2);
    // Real tokens still verify.
    await expect(tokens.verify(issued.idToken, 'id')).resolves.toMatchObject({ userId: 1 });
  });

  it('lets every request that reaches a freshly started server at once through, while its keys load', async () => {
    const repository = createAuthRepository();
    const starting = createTokenService({
      db: ctx.database.db,
      authRepository: repository,
      clock: ctx.clock,
      ttlSeconds: 3600,
    });
    await starting.ensureSigningKey();
    const { idToken } = await starting.issue({
      userId: 1,
      sessionId: 's',
      email: ADMIN_EMAIL,
      name: 'Admin',
      role: 'Administrator',
    });
    // Another process starts: its keys are not loaded yet when ten requests arrive together.
    const restarted = createTokenService({
      db: ctx.database.db,
      authRepository: repository,
      clock: ctx.clock,
      ttlSeconds: 3600,
    });
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => restarted.verify(idToken, 'id')),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill('fulfilled'));
  });
});
