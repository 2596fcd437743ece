import { describe, expect, it, vi } from 'vitest';
import { ADMIN_EMAIL, useTestApp } from '../../../test/context.ts';

/** Holds every account lookup until the test lets it go. */
const lookups = vi.hoisted(() => {
  let open: () => void = () => {};
  let gate = Promise.resolve();
  return {
    close: () => {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    open: () => open(),
    wait: () => gate,
  };
});

vi.mock('../users/users.repository.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../users/users.repository.ts')>();
  return {
    ...original,
    createUsersRepository: () => {
      const repository = original.createUsersRepository();
      return {
        ...repository,
        findUserByEmail: async (...args: Parameters<typeof repository.findUserByEmail>) => {
          await lookups.wait();
          return repository.findUserByEmail(...args);
        },
      };
    },
  };
});

const ctx = useTestApp();

describe('password reset answers', () => {
  it('are sent before anything is looked up, so a known and an unknown address answer alike', async () => {
    lookups.close();
    try {
      const known = await ctx.app.inject({
        method: 'POST',
        url: '/auth/password-reset',
        payload: { email: ADMIN_EMAIL },
      });
      const unknown = await ctx.app.inject({
        method: 'POST',
        url: '/auth/password-reset',
        payload: { email: 'nobody.here@example.org' },
      });
      // Both answered while the account lookup is still held: neither answer waited for it.
      expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
      expect(known.body).toBe(unknown.body);
      expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
      expect(await ctx.worker.runOnce()).toBe(0);
    } finally {
      lookups.open();
    }
    await ctx.app.workSettled();
    // The work happened after the answer: one email, to the known address only.
    expect(await ctx.worker.runOnce()).toBe(1);
    expect(ctx.transport.sent.map((message) => message.toAddress)).toEqual([ADMIN_EMAIL]);
  });
});
