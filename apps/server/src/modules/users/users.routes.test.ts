import { PASSWORD_RULE_MESSAGES } from '@back-office/contract/auth';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  bearer,
  createSignedInUser,
  login,
  passwordLinkToken,
  useTestApp,
} from '../../../test/context.ts';

const ctx = useTestApp();

async function adminHeaders() {
  return bearer((await login(ctx)).id_token);
}

async function createUser(payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/users', headers: await adminHeaders(), payload });
}

describe('GET /api/users', () => {
  it('lists every account for an Administrator, sorted by full name', async () => {
    await createUser({ fullName: 'Zoé Martin', email: 'zoe@example.org', role: 'User' });
    await createUser({ fullName: 'Bernard Dupont', email: 'bernard@example.org', role: 'Administrator' });
    const response = await ctx.app.inject({ url: '/api/users', headers: await adminHeaders() });
    expect(response.statusCode).toBe(200);
    const users = response.json() as Array<Record<string, unknown>>;
    expect(users.map((user) => user.fullName)).toEqual(['Administrator', 'Bernard Dupont', 'Zoé Martin']);
    expect(users[1]).toEqual({
      id: expect.any(Number),
      fullName: 'Bernard Dupont',
      name: 'bernard@example.org',
      email: 'bernard@example.org',
      role: 'Administrator',
      lastLogin: null,
      picture: null,
    });
    expect(users[0]).not.toHaveProperty('passwordHash');
  });

  it('answers 401 without a token and 403 for a User', async () => {
    expect((await ctx.app.inject({ url: '/api/users' })).statusCode).toBe(401);
    const { tokens } = await createSignedInUser(ctx);
    const response = await ctx.app.inject({ url: '/api/users', headers: bearer(tokens.id_token) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 403, code: 'auth.forbidden' });
  });
});

describe('GET /api/users/{id}', () => {
  it('lets a User read their own record but not another', async () => {
    const { id, tokens } = await createSignedInUser(ctx);
    const own = await ctx.app.inject({ url: `/api/users/${id}`, headers: bearer(tokens.id_token) });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id, email: 'user@example.org', role: 'User' });
    const other = await ctx.app.inject({ url: '/api/users/1', headers: bearer(tokens.id_token) });
    expect(other.statusCode).toBe(403);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const headers = await adminHeaders();
    const missing = await ctx.app.inject({ url: '/api/users/999', headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('users.not_found');
    const malformed = await ctx.app.inject({ url: '/api/users/abc', headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].path).toBe('id');
  });
});

describe('POST /api/users', () => {
  it('creates the account and emails it a link to set its password', async () => {
    const response = await createUser({
      fullName: '  Jeanne Petit ',
      email: 'jeanne@example.org',
      role: 'User',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      fullName: 'Jeanne Petit',
      email: 'jeanne@example.org',
      role: 'User',
    });
    expect(await ctx.worker.runOnce()).toBe(1);
    expect(ctx.transport.sent[0]).toMatchObject({
      toAddress: 'jeanne@example.org',
      subject: 'Your back office account',
    });
    expect(await passwordLinkToken(ctx, 'jeanne@example.org')).toMatch(/^[\w-]{40,}$/);
    // No password yet: the account cannot sign in until the link is used.
    const attempt = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'jeanne@example.org', password: 'anything-at-all' },
    });
    expect(attempt.statusCode).toBe(401);
  });

  it.each([
    [{ email: 'a@example.org', role: 'User' }, 'fullName', 'Name is required'],
    [{ fullName: 'abc', email: 'a@example.org', role: 'User' }, 'fullName', 'Name is required'],
    [{ fullName: 'Jean Dupont', role: 'User' }, 'email', 'Email is required'],
    [{ fullName: 'Jean Dupont', email: 'not-an-email', role: 'User' }, 'email', 'Valid email is required'],
    [{ fullName: 'Jean Dupont', email: 'a@example.org' }, 'role', 'Role is required'],
    [{ fullName: 'Jean Dupont', email: 'a@example.org', role: 'Boss' }, 'role', 'Role is required'],
  ])('answers 400 naming the field for %j', async (payload, path, message) => {
    const response = await createUser(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path, message });
    const list = await ctx.app.inject({ url: '/api/users', headers: await adminHeaders() });
    expect(list.json()).toHaveLength(1);
  });

  it('answers 409 for an address already used, in any case, and writes nothing', async () => {
    const response = await createUser({
      fullName: 'Other Admin',
      email: ADMIN_EMAIL.toUpperCase(),
      role: 'User',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'users.email_taken' });
    expect(response.json().errors).toEqual([
      { path: 'email', message: 'This email address is already used by another account.' },
    ]);
    expect(await ctx.worker.runOnce()).toBe(0);
  });

  it('answers 403 for a User', async () => {
    const { tokens } = await createSignedInUser(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(tokens.id_token),
      payload: { fullName: 'Sneaky Person', email: 'sneaky@example.org', role: 'Administrator' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('PATCH /api/users/{id}', () => {
  it('updates name, email and role', async () => {
    const created = (
      await createUser({ fullName: 'Jean Dupont', email: 'jean@example.org', role: 'User' })
    ).json();
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${created.id}`,
      headers: await adminHeaders(),
      payload: {
        id: created.id,
        fullName: 'Jean-Paul Dupont',
        email: 'jp@example.org',
        role: 'Administrator',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: created.id,
      fullName: 'Jean-Paul Dupont',
      email: 'jp@example.org',
      name: 'jp@example.org',
      role: 'Administrator',
    });
  });

  it('ends the sessions of a person whose role changes', async () => {
    const { id, tokens } = await createSignedInUser(ctx);
    await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers: await adminHeaders(),
      payload: { id, fullName: 'Some Body', email: 'user@example.org', role: 'Administrator' },
    });
    const after = await ctx.app.inject({ url: `/api/users/${id}`, headers: bearer(tokens.id_token) });
    expect(after.statusCode).toBe(401);
  });

  it('answers 400 for a body id that differs from the path, 404 for an unknown id, 409 for a taken email', async () => {
    const headers = await adminHeaders();
    const created = (
      await createUser({ fullName: 'Jean Dupont', email: 'jean@example.org', role: 'User' })
    ).json();
    const mismatch = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${created.id}`,
      headers,
      payload: { id: 1, fullName: 'Jean Dupont', email: 'jean@example.org', role: 'User' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0].path).toBe('id');

    const missing = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/users/999',
      headers,
      payload: { fullName: 'Jean Dupont', email: 'jean@example.org', role: 'User' },
    });
    expect(missing.statusCode).toBe(404);

    const taken = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${created.id}`,
      headers,
      payload: { fullName: 'Jean Dupont', email: ADMIN_EMAIL, role: 'User' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('users.email_taken');

    const badRole = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${created.id}`,
      headers,
      payload: { fullName: 'Jean Dupont', email: 'jean@example.org', role: 'Root' },
    });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().errors[0].path).toBe('role');
  });

  it('refuses to demote the last Administrator', async () => {
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/users/1',
      headers: await adminHeaders(),
      payload: { fullName: 'Administrator', email: ADMIN_EMAIL, role: 'User' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('users.last_administrator');
  });
});

describe('DELETE /api/users/{id}', () => {
  it('deletes an account and ends its sessions', async () => {
    const { id, tokens } = await createSignedInUser(ctx);
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/${id}`,
      headers: await adminHeaders(),
    });
    expect(response.statusCode).toBe(204);
    expect(
      (await ctx.app.inject({ url: `/api/users/${id}`, headers: await adminHeaders() })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.app.inject({ url: `/api/users/${id}`, headers: bearer(tokens.id_token) })).statusCode,
    ).toBe(401);
  });

  it('refuses to delete one’s own account, answers 404 for an unknown id and 403 for a User', async () => {
    const headers = await adminHeaders();
    const self = await ctx.app.inject({ method: 'DELETE', url: '/api/users/1', headers });
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe('users.cannot_delete_self');
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/users/999', headers })).statusCode).toBe(404);
    const { tokens } = await createSignedInUser(ctx);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: '/api/users/1', headers: bearer(tokens.id_token) }))
        .statusCode,
    ).toBe(403);
  });

  it('always keeps one Administrator: the remaining one cannot demote themself', async () => {
    const second = await createSignedInUser(ctx, { email: 'second@example.org', role: 'Administrator' });
    const deleteFirst = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/users/1',
      headers: bearer(second.tokens.id_token),
    });
    expect(deleteFirst.statusCode).toBe(204);
    const list = await ctx.app.inject({ url: '/api/users', headers: bearer(second.tokens.id_token) });
    expect(list.json()).toHaveLength(1);
    const demote = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${second.id}`,
      headers: bearer(second.tokens.id_token),
      payload: { fullName: 'Some Body', email: 'second@example.org', role: 'User' },
    });
    expect(demote.statusCode).toBe(409);
  });
});

describe('PATCH /api/users/password/{id}', () => {
  it('lets a User change their own password, keeping this session and ending the others', async () => {
    const { id, tokens } = await createSignedInUser(ctx);
    const other = await login(ctx, 'user@example.org', 'user-password-1');
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/password/${id}`,
      headers: bearer(tokens.id_token),
      payload: {
        currentPassword: 'user-password-1',
        newPassword: 'my-new-password-2',
        confirmPassword: 'my-new-password-2',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, email: 'user@example.org' });
    expect(
      (await ctx.app.inject({ url: `/api/users/${id}`, headers: bearer(tokens.id_token) })).statusCode,
    ).toBe(200);
    expect(
      (await ctx.app.inject({ url: `/api/users/${id}`, headers: bearer(other.id_token) })).statusCode,
    ).toBe(401);
    await expect(login(ctx, 'user@example.org', 'my-new-password-2')).resolves.toBeTruthy();
  });

  it("refuses a User changing someone else's password, and checks the fields", async () => {
    const { id, tokens } = await createSignedInUser(ctx);
    const forbidden = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/users/password/1',
      headers: bearer(tokens.id_token),
      payload: { newPassword: 'my-new-password-2', confirmPassword: 'my-new-password-2' },
    });
    expect(forbidden.statusCode).toBe(403);

    const mismatch = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/password/${id}`,
      headers: bearer(tokens.id_token),
      payload: { newPassword: 'my-new-password-2', confirmPassword: 'my-new-password-3' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors).toContainEqual({
      path: 'confirmPassword',
      message: 'Passwords do not match.',
    });

    const empty = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/password/${id}`,
      headers: bearer(tokens.id_token),
      payload: { newPassword: '', confirmPassword: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toContainEqual({ path: 'newPassword', message: 'Please enter new password' });
  });

  it('refuses a password shorter than 10 characters, a common one, or the email, and changes nothing', async () => {
    const { id, tokens } = await createSignedInUser(ctx, { email: 'Paul.Girard@example.org' });
    const change = (newPassword: string) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/password/${id}`,
        headers: bearer(tokens.id_token),
        payload: { currentPassword: 'user-password-1', newPassword, confirmPassword: newPassword },
      });
    for (const [newPassword, code, message] of [
      ['nine-char', 'validation.failed', 'The password must have at least 10 characters.'],
      ['iloveyou123', 'validation.password_rejected', PASSWORD_RULE_MESSAGES.common],
      ['1q2w3e4r5t', 'validation.password_rejected', PASSWORD_RULE_MESSAGES.common],
      ['paul.girard@EXAMPLE.org', 'validation.password_rejected', PASSWORD_RULE_MESSAGES.email],
      ['PAUL.GIRARD', 'validation.password_rejected', PASSWORD_RULE_MESSAGES.email],
    ] as const) {
      const refused = await change(newPassword);
      expect(refused.statusCode).toBe(400);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({ code, errors: [{ path: 'newPassword', message }] });
    }
    await expect(login(ctx, 'Paul.Girard@example.org', 'user-password-1')).resolves.toBeTruthy();
  });

  it("checks the rules against the account's own email when an Administrator sets someone's password", async () => {
    const { id } = await createSignedInUser(ctx, { email: 'lea.roux@example.org' });
    const headers = await adminHeaders();
    const refused = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/password/${id}`,
      headers,
      payload: { newPassword: 'lea.roux@example.org', confirmPassword: 'lea.roux@example.org' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ path: 'newPassword', message: PASSWORD_RULE_MESSAGES.email }]);
    // The Administrator's own address is not the account's: it is not this rule's business.
    const accepted = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/password/${id}`,
      headers,
      payload: { newPassword: `${ADMIN_EMAIL}-x`, confirmPassword: `${ADMIN_EMAIL}-x` },
    });
    expect(accepted.statusCode).toBe(200);
  });

  it('lets an Administrator set anyone’s password, and answers 404 for an unknown id', async () => {
    const { id } = await createSignedInUser(ctx);
    const headers = await adminHeaders();
    const payload = { newPassword: 'set-by-the-admin', confirmPassword: 'set-by-the-admin' };
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/password/${id}`,
      headers,
      payload,
    });
    expect(response.statusCode).toBe(200);
    await expect(login(ctx, 'user@example.org', 'set-by-the-admin')).resolves.toBeTruthy();
    const missing = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/users/password/999',
      headers,
      payload,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('asks people changing their own password for the current one: 400 naming currentPassword, nothing changed', async () => {
    const { id, tokens } = await createSignedInUser(ctx);
    for (const currentPassword of [undefined, 'not-my-password']) {
      const refused = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/password/${id}`,
        headers: bearer(tokens.id_token),
        payload: {
          currentPassword,
          newPassword: 'taken-over-password',
          confirmPassword: 'taken-over-password',
        },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'users.wrong_current_password',
        errors: [{ path: 'currentPassword', message: 'Your current password is wrong.' }],
      });
    }
    await expect(login(ctx, 'user@example.org', 'user-password-1')).resolves.toBeTruthy();
    await expect(login(ctx, 'user@example.org', 'taken-over-password')).rejects.toThrow(/401/);
  });
});

describe('guessing the current password from a signed-in session', () => {
  it('counts each wrong current password as a failed sign-in and locks the guessing after 5', async () => {
    const { id, tokens } = await createSignedInUser(ctx);
    const change = (currentPassword: string) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/password/${id}`,
        headers: bearer(tokens.id_token),
        payload: {
          currentPassword,
          newPassword: 'taken-over-password',
          confirmPassword: 'taken-over-password',
        },
      });
    for (let guess = 0; guess < 5; guess += 1)
      expect((await change(`guess-number-${guess}`)).statusCode).toBe(400);
    const locked = await change('user-password-1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('auth.too_many_attempts');
    expect(Number(locked.headers['retry-after'])).toBe(15 * 60);
    // The password did not change, even with the right one sent while locked; and sign-in from this
    // address is locked too, while the owner signs in from elsewhere.
    const signIn = (password: string, remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress,
        payload: { email: 'user@example.org', password },
      });
    expect((await signIn('user-password-1', '127.0.0.1')).statusCode).toBe(429);
    expect((await signIn('taken-over-password', '198.51.100.20')).statusCode).toBe(401);
    expect((await signIn('user-password-1', '198.51.100.20')).statusCode).toBe(200);
  });
});

describe('old emailed links and sessions after an account changes', () => {
  /** Asks for a reset link for user@example.org and returns its token, unused. */
  async function resetLinkToken() {
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: 'user@example.org' },
    });
    expect(asked.statusCode).toBeLessThan(300);
    return passwordLinkToken(ctx, 'user@example.org');
  }

  const useLink = (token: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'attacker-password-9' },
    });

  const changes = {
    email: async (id: number) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/${id}`,
        headers: await adminHeaders(),
        payload: { fullName: 'Some Body', email: 'new.address@example.org', role: 'User' },
      }),
    role: async (id: number) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/${id}`,
        headers: await adminHeaders(),
        payload: { fullName: 'Some Body', email: 'user@example.org', role: 'Administrator' },
      }),
    'password (by an Administrator)': async (id: number) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/password/${id}`,
        headers: await adminHeaders(),
        payload: { newPassword: 'set-by-the-admin', confirmPassword: 'set-by-the-admin' },
      }),
    'password (by the person)': async (id: number, idToken: string) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/password/${id}`,
        headers: bearer(idToken),
        payload: {
          currentPassword: 'user-password-1',
          newPassword: 'my-new-password-2',
          confirmPassword: 'my-new-password-2',
        },
      }),
  };

  it.each(Object.keys(changes) as Array<keyof typeof changes>)(
    'voids the reset link sent before a change of %s and ends the other sessions',
    async (change) => {
      const { id, tokens } = await createSignedInUser(ctx);
      const elsewhere = await login(ctx, 'user@example.org', 'user-password-1');
      const token = await resetLinkToken();
      const changed = await changes[change](id, tokens.id_token);
      expect(changed.statusCode).toBe(200);

      const used = await useLink(token);
      expect(used.statusCode).toBe(400);
      expect(used.json().code).toBe('auth.invalid_password_token');
      await expect(login(ctx, 'new.address@example.org', 'attacker-password-9')).rejects.toThrow(/401/);
      await expect(login(ctx, 'user@example.org', 'attacker-password-9')).rejects.toThrow(/401/);
      const otherSession = await ctx.app.inject({
        url: `/api/users/${id}`,
        headers: bearer(elsewhere.id_token),
      });
      expect(otherSession.statusCode).toBe(401);
    },
  );

  it('voids the invitation link of a new account whose email is corrected before it was used', async () => {
    const headers = await adminHeaders();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: { fullName: 'New Person', email: 'typo@example.org', role: 'User' },
    });
    const id = (created.json() as { id: number }).id;
    const invitation = await passwordLinkToken(ctx, 'typo@example.org');
    const corrected = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers,
      payload: { fullName: 'New Person', email: 'right@example.org', role: 'User' },
    });
    expect(corrected.statusCode).toBe(200);
    expect((await useLink(invitation)).statusCode).toBe(400);
  });

  it('leaves links and sessions alone when only the name changes', async () => {
    const { id } = await createSignedInUser(ctx);
    const elsewhere = await login(ctx, 'user@example.org', 'user-password-1');
    const token = await resetLinkToken();
    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers: await adminHeaders(),
      payload: { fullName: 'Some Body Else', email: 'user@example.org', role: 'User' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ url: `/api/users/${id}`, headers: bearer(elsewhere.id_token) })).statusCode,
    ).toBe(200);
    expect((await useLink(token)).statusCode).toBe(204);
  });
});
