import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createMailRepository } from '../src/modules/mail/mail.repository.ts';
import { createMailWorker } from '../src/modules/mail/mail.worker.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, passwordLinkToken, useTestApp } from './context.ts';
import { buildSubscriber } from './factories.ts';

/**
 * docs/security.md §Input, output and headers: tokens and personal data (IBAN, email, address, names)
 * never reach the logs, whatever the request does: sign-in (good and bad), password links, subscriber
 * records, searches, validation errors, unsubscribe links, database errors. The app logs at `trace` into
 * memory; every secret the requests carried or received is then looked for in the captured text.
 */

const ctx = useTestApp();

/** An app like the real one, logging every line at `trace` into `lines`. */
async function loggingApp() {
  const lines: string[] = [];
  const app = await ctx.build({ logger: { level: 'trace', stream: { write: (line) => lines.push(line) } } });
  return { app, text: () => lines.join('') };
}

const IBAN = 'FR14 2004 1010 0505 0001 3M02 606';
const IBAN_COMPACT = IBAN.replaceAll(' ', '');
const EMAIL = 'zoe.vasseur-kowalczyk@example.org';
const STREET = '17 rue des Lilas-Pourpres';
const LAST_NAME = 'Vasseur-Kowalczyk';

/** Asserts that none of `secrets` appears in `log`, in any case, and that the log did record requests. */
function expectClean(log: string, secrets: string[]) {
  expect(log).toContain('incoming request');
  expect(log).toContain('request completed');
  const lower = log.toLowerCase();
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(6);
    expect(lower.includes(secret.toLowerCase()), `the log holds ${secret}`).toBe(false);
  }
}

describe('logs', () => {
  it('hold no token, password or email through sign-in, sign-out and password links', async () => {
    const { app, text } = await loggingApp();
    const failed = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'no.such.person@example.org', password: 'a-wrong-password' },
    });
    expect(failed.statusCode).toBe(401);
    const wrongPassword = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN_EMAIL, password: 'another-wrong-password' },
    });
    expect(wrongPassword.statusCode).toBe(401);

    const signedIn = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(signedIn.statusCode).toBe(200);
    const { id_token, access_token } = signedIn.json();
    expect((await app.inject({ url: '/auth/userinfo', headers: bearer(access_token) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/users', headers: bearer(id_token) })).statusCode).toBe(200);

    const reset = await app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: ADMIN_EMAIL },
    });
    expect(reset.statusCode).toBe(202);
    const unknownReset = await app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: 'somebody.unknown@example.org' },
    });
    expect(unknownReset.statusCode).toBe(202);
    await app.workSettled();
    const linkToken = await passwordLinkToken(ctx, ADMIN_EMAIL);
    const refused = await app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token: linkToken, newPassword: 'password123' },
    });
    expect(refused.statusCode).toBe(400);
    const confirmed = await app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token: linkToken, newPassword: 'a-fresh-secret-phrase' },
    });
    expect(confirmed.statusCode).toBe(204);
    // The emails go out through a worker that logs into the same logger.
    const worker = createMailWorker({
      db: ctx.database.db,
      mailRepository: createMailRepository(),
      transport: ctx.transport,
      logger: app.log,
      pollIntervalMs: 60_000,
    });
    expect(await worker.runOnce()).toBe(1);
    // A refusal that names the recipient is logged without the address.
    ctx.transport.failWith = `550 5.1.1 <${ADMIN_EMAIL}>: Recipient address rejected`;
    await app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: ADMIN_EMAIL } });
    await app.workSettled();
    expect(await worker.runOnce()).toBe(1);
    ctx.transport.failWith = undefined;
    expect(text()).toContain('Recipient address rejected');

    const again = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN_EMAIL, password: 'a-fresh-secret-phrase' },
    });
    expect(
      (await app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(again.json().id_token) }))
        .statusCode,
    ).toBe(204);

    expect(text()).toContain('"url":"/auth/login"');
    expectClean(text(), [
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      'no.such.person@example.org',
      'somebody.unknown@example.org',
      'a-wrong-password',
      'another-wrong-password',
      'a-fresh-secret-phrase',
      id_token,
      access_token,
      again.json().id_token,
      linkToken,
    ]);
  });

  it('hold no IBAN, email, address or name of a subscriber saved, searched, refused or unsubscribed', async () => {
    const { app, text } = await loggingApp();
    const session = (await (
      await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      })
    ).json()) as { id_token: string };
    const headers = bearer(session.id_token);
    const subscriber = buildSubscriber({
      lastName: LAST_NAME,
      email: EMAIL,
      address1: STREET,
      iban: IBAN,
      town: 'Lyon',
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/subscribers',
      headers,
      payload: subscriber,
    });
    expect(created.statusCode).toBe(201);
    const saved = created.json() as { id: number };
    const record = (await app.inject({ url: `/api/subscribers/${saved.id}`, headers })).json();
    expect(record.iban).toBe(IBAN_COMPACT);
    const updated = await app.inject({
      method: 'PATCH',
      url: `/api/subscribers/${saved.id}`,
      headers,
      payload: { ...record, address2: 'Bâtiment Vasseur-Kowalczyk' },
    });
    expect(updated.statusCode).toBe(200);

    // Searches and exports carry names and addresses in the query string.
    const search = await app.inject({
      url: `/api/subscribers/?name=${encodeURIComponent(LAST_NAME)}&town=Lyon&postcode=69001`,
      headers,
    });
    expect(search.statusCode).toBe(200);
    expect(
      (await app.inject({ url: `/api/subscribers/export?name=${encodeURIComponent(LAST_NAME)}`, headers }))
        .statusCode,
    ).toBe(200);

    // Refused bodies and paths: the problem names the field, the log keeps none of the values.
    const invalid = await app.inject({
      method: 'POST',
      url: '/api/subscribers',
      headers,
      payload: { ...subscriber, iban: `${IBAN_COMPACT}99`, copies: 'many' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.map((error: { path: string }) => error.path)).toEqual(
      expect.arrayContaining(['iban', 'copies']),
    );
    expect((await app.inject({ url: `/api/subscribers/${EMAIL}`, headers })).statusCode).toBe(400);
    expect(
      (await app.inject({ url: `/api/nothing/${encodeURIComponent(STREET)}`, headers })).statusCode,
    ).toBe(404);

    // The unsubscribe link carries its token in the URL (it is emailed): not in the log.
    const queued = await app.inject({
      method: 'POST',
      url: '/api/subscribers/email/list',
      headers,
      payload: {
        subject: 'Nouvelles',
        message: 'Bonjour {lastName}',
        name: LAST_NAME,
        firstName: null,
        town: null,
        postcode: null,
        assoc: null,
        category: null,
        country: null,
        pmeth: null,
        receivingCopies: null,
        addedAfter: '',
        addedBefore: '',
        copies: null,
        status: null,
        tag: null,
      },
    });
    expect(queued.json()).toMatchObject({ queued: 1 });
    const message = (await createMailRepository().listMessages(ctx.database.db)).find(
      (row) => row.toAddress === EMAIL,
    );
    const link = message?.textBody.match(/\/unsubscribe\?s=(\d+)&t=([\w-]+)/);
    const unsubscribeToken = link?.[2] ?? '';
    expect(unsubscribeToken.length).toBeGreaterThan(10);
    expect((await app.inject({ url: link?.[0] ?? '' })).statusCode).toBe(200);
    const unsubscribed = await app.inject({
      method: 'POST',
      url: '/unsubscribe',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `s=${link?.[1]}&t=${unsubscribeToken}`,
    });
    expect(unsubscribed.statusCode).toBe(200);

    const log = text();
    expect(log).toContain('"url":"/unsubscribe"');
    expect(log).toContain(`"url":"/api/subscribers/${saved.id}"`);
    expectClean(log, [
      IBAN,
      IBAN_COMPACT,
      EMAIL,
      STREET,
      encodeURIComponent(STREET),
      LAST_NAME,
      unsubscribeToken,
      session.id_token,
    ]);
  });

  it('hold no value of a failed database query, from the driver nor from Drizzle', async () => {
    const { app, text } = await loggingApp();
    const failure = await ctx.database.db
      .execute(sql`select ${IBAN_COMPACT}::int as n, ${EMAIL} as email`)
      .then(() => undefined)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    // What the error handler does with a 5xx.
    app.log.error({ err: failure }, 'request failed');
    const log = text();
    expect(log).toContain('request failed');
    expect(log).toContain('Failed query: select $1::int as n, $2 as email');
    expect(log).toContain('22P02');
    for (const secret of [IBAN_COMPACT, EMAIL]) expect(log).not.toContain(secret);
  });
});
