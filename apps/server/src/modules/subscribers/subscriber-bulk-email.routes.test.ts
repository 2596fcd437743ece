import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { insertLyonAudience } from '../../../test/factories.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { createMailRepository } from '../mail/mail.repository.ts';

const ctx = useTestApp();
const mailRepository = createMailRepository();

async function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const headers = bearer((await login(ctx)).id_token);
  return ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

const historyOf = async (id: number | undefined) =>
  ((await api('GET', `/api/subscribers/${id}/history`)).json() as Array<{ description: string }>).map(
    (entry) => entry.description,
  );

const emailList = (overrides: object = {}) => ({
  subject: 'Nouvelles de {firstName}',
  message: 'Bonjour {title} {firstName} {lastName},\nÀ bientôt.',
  town: 'Lyon',
  ...overrides,
});

async function setSender(emailSenderName: string, emailSenderAddress: string) {
  const current = (await api('GET', '/api/settings')).json();
  const saved = await api('PUT', '/api/settings', {
    ...current,
    organisationName: 'Les Amis du Léman',
    emailSenderName,
    emailSenderAddress,
  });
  expect(saved.statusCode).toBe(200);
}

/** The bulk-email audience (test/factories.ts), Parti deleted through the API. */
const seedLyon = () => insertLyonAudience(ctx, (id) => api('DELETE', `/api/subscribers/${id}`));

/** The https link of `List-Unsubscribe` of the message sent to `email`. */
async function oneClickLink(email: string) {
  const message = (await mailRepository.listMessages(ctx.database.db)).find((row) => row.toAddress === email);
  const link = message?.headers['List-Unsubscribe']?.match(/<(http:\/\/app\.test\/unsubscribe\?[^>]+)>/)?.[1];
  if (!link) throw new Error(`no List-Unsubscribe link sent to ${email}`);
  return link.replace('http://app.test', '');
}

describe('before a bulk email: POST /api/subscribers/email/list/preview and /test', () => {
  it('counts who it reaches and who it skips, and renders the first recipient’s message', async () => {
    await seedLyon();
    const response = await api('POST', '/api/subscribers/email/list/preview', emailList());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      recipients: 2,
      skipped: { noAddress: 1, unsubscribed: 0, deleted: 0 },
      preview: {
        to: 'elodie@example.org',
        subject: 'Nouvelles de Élodie',
        text: expect.stringMatching(
          /^Bonjour Mme Élodie Dupont,\nÀ bientôt\.\n[\s\S]*http:\/\/app\.test\/unsubscribe\n$/,
        ),
      },
    });
    // While the user is still typing: empty subject and message are previewed, nothing is queued.
    const empty = await api(
      'POST',
      '/api/subscribers/email/list/preview',
      emailList({ subject: '', message: '' }),
    );
    expect(empty.statusCode).toBe(200);
    expect(empty.json().preview.subject).toBe('');
    const nobody = await api('POST', '/api/subscribers/email/list/preview', emailList({ town: 'Paris' }));
    expect(nobody.json()).toMatchObject({ recipients: 0, preview: null });
    expect(await mailRepository.listMessages(ctx.database.db)).toHaveLength(0);
    const bad = await api(
      'POST',
      '/api/subscribers/email/list/preview',
      emailList({ addedAfter: '31/12/2026' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('addedAfter');
  });

  it('sends the test to the signed-in user only, from the organisation, without history', async () => {
    const saved = await seedLyon();
    const { tokens } = await createSignedInUser(ctx, { email: 'tester@example.org' });
    const before = (await mailRepository.listMessages(ctx.database.db)).length;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/subscribers/email/list/test',
      headers: bearer(tokens.id_token),
      payload: emailList(),
    });
    expect(response.statusCode).toBe(202);
    const messages = (await mailRepository.listMessages(ctx.database.db)).slice(before);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      toAddress: 'tester@example.org',
      subject: '[Test] Nouvelles de Élodie',
      fromOrganisation: true,
      sendId: null,
      subscriberId: null,
    });
    expect((await historyOf(saved[0]?.id)).some((line) => line.startsWith('Email sent'))).toBe(false);
    const short = await api('POST', '/api/subscribers/email/list/test', emailList({ subject: 'Hé' }));
    expect(short.json().errors).toEqual([{ path: 'subject', message: 'Subject is required' }]);
  });
});

describe('a bulk email’s messages', () => {
  it('carry List-Unsubscribe (mailto and https) and List-Unsubscribe-Post, and go From the settings’ sender with its Reply-To', async () => {
    await seedLyon();
    await setSender('Les Amis du Léman', 'contact@amis-leman.org');
    const response = await api('POST', '/api/subscribers/email/list', emailList());
    expect(response.json()).toEqual({ queued: 2, sendId: expect.any(Number) });
    const [first] = await mailRepository.listMessages(ctx.database.db);
    expect(first?.headers).toEqual({
      'List-Unsubscribe': expect.stringMatching(
        /^<mailto:contact@amis-leman\.org\?subject=unsubscribe>, <http:\/\/app\.test\/unsubscribe\?s=\d+&t=[\w-]+>$/,
      ),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });

    const sink = await startSmtpSink();
    try {
      expect(await ctx.workerFor(sink.transport).runOnce()).toBe(2);
      const parsed = await sink.parse(0);
      expect(parsed.from?.value).toEqual([{ name: 'Les Amis du Léman', address: 'contact@amis-leman.org' }]);
      expect(parsed.replyTo?.value).toEqual([{ name: '', address: 'contact@amis-leman.org' }]);
      expect(sink.received[0]?.data).toMatch(
        /^List-Unsubscribe: <mailto:contact@amis-leman\.org\?subject=unsubscribe>,/m,
      );
      expect(sink.received[0]?.data).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    } finally {
      await sink.close();
    }
  });

  it('go From MAIL_FROM without a sender address in the settings, with a mailto to its address', async () => {
    await seedLyon();
    await setSender('Les Amis du Léman', '');
    await api('POST', '/api/subscribers/email/list', emailList());
    const [first] = await mailRepository.listMessages(ctx.database.db);
    expect(first?.headers['List-Unsubscribe']).toMatch(/^<mailto:no-reply@localhost\?subject=unsubscribe>/);
    const sink = await startSmtpSink();
    try {
      await ctx.workerFor(sink.transport).runOnce();
      const parsed = await sink.parse(0);
      expect(parsed.from?.value).toEqual([{ name: '', address: 'office@example.org' }]);
      expect(parsed.replyTo).toBeUndefined();
    } finally {
      await sink.close();
    }
  });
});

describe('the one-click unsubscribe (RFC 8058)', () => {
  it('unsubscribes with one POST to the List-Unsubscribe link, without sign-in, records it, and later sends skip them', async () => {
    const saved = await seedLyon();
    await api('POST', '/api/subscribers/email/list', emailList());
    const link = await oneClickLink('elodie@example.org');
    const post = () =>
      ctx.app.inject({
        method: 'POST',
        url: link,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
    const response = await post();
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Désinscription enregistrée');
    expect((await historyOf(saved[0]?.id))[0]).toBe('Unsubscribed from emails through the link.');
    // Again, and as multipart form data: still fine, recorded once.
    expect((await post()).statusCode).toBe(200);
    const multipart = await ctx.app.inject({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(multipart.statusCode).toBe(200);
    expect((await historyOf(saved[0]?.id)).filter((line) => line.startsWith('Unsubscribed'))).toHaveLength(1);

    const preview = await api('POST', '/api/subscribers/email/list/preview', emailList());
    expect(preview.json()).toMatchObject({
      recipients: 1,
      skipped: { noAddress: 1, unsubscribed: 1, deleted: 0 },
      preview: { to: 'marc@example.org' },
    });
    expect((await api('POST', '/api/subscribers/email/list', emailList())).json()).toMatchObject({
      queued: 1,
    });

    const forged = await ctx.app.inject({
      method: 'POST',
      url: link.replace(/t=[\w-]+/, 't=forged'),
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.statusCode).toBe(400);
  });
});

describe('after a bulk email: GET /api/mail/sends/{id} and POST /api/mail/sends/{id}/retry', () => {
  it('counts the messages queued, sent and failed, and queues the failed ones again for their sender or an Administrator', async () => {
    await seedLyon();
    const sender = await createSignedInUser(ctx, { email: 'sender@example.org' });
    const other = await createSignedInUser(ctx, { email: 'other@example.org' });
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/subscribers/email/list',
      headers: bearer(sender.tokens.id_token),
      payload: emailList(),
    });
    const { sendId } = sent.json();
    const progress = async () => (await api('GET', `/api/mail/sends/${sendId}`)).json();
    expect(await progress()).toMatchObject({
      id: sendId,
      subject: 'Nouvelles de {firstName}',
      createdBy: 'Some Body',
      total: 2,
      queued: 2,
      sent: 0,
      failed: 0,
    });

    await ctx.worker.runOnce();
    expect(await progress()).toMatchObject({ total: 2, queued: 0, sent: 2, failed: 0 });

    // One message given up after its retries.
    await ctx.database.db.execute(
      sql`update outbox_messages set status = 'failed', last_error = '550 mailbox unavailable' where id = (select min(id) from outbox_messages where send_id = ${sendId})`,
    );
    expect(await progress()).toMatchObject({ sent: 1, failed: 1 });

    const retry = (token: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/mail/sends/${sendId}/retry`, headers: bearer(token) });
    const refused = await retry(other.tokens.id_token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('mail.send_forbidden');
    const accepted = await retry(sender.tokens.id_token);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ retried: 1 });
    expect(await progress()).toMatchObject({ queued: 1, sent: 1, failed: 0 });
    await ctx.worker.runOnce();
    expect(await progress()).toMatchObject({ queued: 0, sent: 2, failed: 0 });
    expect((await retry((await login(ctx)).id_token)).json()).toEqual({ retried: 0 });

    expect((await api('GET', '/api/mail/sends/999999')).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: `/api/mail/sends/${sendId}` })).statusCode).toBe(401);
  });
});
