import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertLyonAudience, insertSubscribers } from '../../../test/factories.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { createAuthRepository } from '../auth/auth.repository.ts';
import { createMailRepository } from '../mail/mail.repository.ts';
import { createSettingsRepository } from '../settings/settings.repository.ts';
import { createSettingsService } from '../settings/settings.service.ts';
import { createSubscriberEmailRepository } from './subscriber-email.repository.ts';
import { createSubscriberEmailService } from './subscriber-email.service.ts';
import { createUnsubscribeTokens } from './subscriber-email-token.ts';
import { createSubscribersRepository } from './subscribers.repository.ts';
import { createSubscribersService } from './subscribers.service.ts';

const ctx = useTestApp();
const mailRepository = createMailRepository();

async function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const headers = bearer((await login(ctx)).id_token);
  return ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

const historyOf = async (id: number | undefined) =>
  (
    (await api('GET', `/api/subscribers/${id}/history`)).json() as Array<{
      description: string;
      user: string;
    }>
  ).map((entry) => entry.description);

/** An email-list payload as the legacy client sends it: every filter present, empty ones null. */
const emailList = (overrides: object = {}) => ({
  subject: 'Nouvelles de {firstName}',
  message: 'Bonjour {title} {firstName} {lastName},\nÀ bientôt.',
  name: null,
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
  ...overrides,
});

/** The bulk-email audience (test/factories.ts), Parti deleted through the API. */
const seedLyon = () => insertLyonAudience(ctx, (id) => api('DELETE', `/api/subscribers/${id}`));

describe('GET /api/subscribers/{id}/brochure/email', () => {
  it('queues the returned-brochure email with the default French text, sends it, and writes history', async () => {
    await api('PUT', '/api/settings', {
      organisationName: 'Les Amis du Léman',
      address: '',
      emailSenderName: '',
      emailSenderAddress: '',
      sirenOrRna: '',
      sepaCreditorId: '',
      signatoryName: '',
      signatoryTitle: '',
      organisationPurpose: '',
      receiptStatement: '',
      invoiceFooter: '',
      paymentTermsText: '',
      logo: null,
    });
    const [zoe] = await insertSubscribers(ctx, [
      buildSubscriber({ title: 'Mme', firstName: 'Zoé', lastName: 'Martin', email: 'zoe@example.org' }),
    ]);
    const response = await api('GET', `/api/subscribers/${zoe?.id}/brochure/email`);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ queued: 1 });

    expect(await ctx.worker.runOnce()).toBe(1);
    expect(ctx.transport.sent).toHaveLength(1);
    const [mail] = ctx.transport.sent;
    expect(mail?.toAddress).toBe('zoe@example.org');
    expect(mail?.subject).toBe('Brochure retournée');
    expect(mail?.textBody).toMatch(/^Bonjour Mme Zoé Martin,\n/);
    expect(mail?.textBody).toContain('adresse postale actuelle');
    expect(mail?.textBody).toMatch(/Les Amis du Léman$/);
    expect(mail?.htmlBody).toContain('<p style="margin: 0 0 1em;">Bonjour Mme Zoé Martin,</p>');
    expect((await historyOf(zoe?.id))[0]).toBe('Returned brochure email sent.');
  });

  it('uses the subject and text of the settings, with their placeholders', async () => {
    const admin = bearer((await login(ctx)).id_token);
    const current = (await ctx.app.inject({ url: '/api/settings', headers: admin })).json();
    await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: {
        ...current,
        brochureEmailSubject: 'Votre adresse, {firstName} ?',
        brochureEmailText: 'Cher {firstName} {lastName}, merci de nous écrire.',
      },
    });
    const [marc] = await insertSubscribers(ctx, [
      buildSubscriber({ title: '', firstName: 'Marc', lastName: 'Durand', email: 'marc@example.org' }),
    ]);
    expect((await api('GET', `/api/subscribers/${marc?.id}/brochure/email`)).statusCode).toBe(202);
    const [queued] = await mailRepository.listMessages(ctx.database.db);
    expect(queued).toMatchObject({
      toAddress: 'marc@example.org',
      subject: 'Votre adresse, Marc ?',
      textBody: 'Cher Marc Durand, merci de nous écrire.',
    });
  });

  it('answers 400 naming `email` for a subscriber without an address, 404 for an unknown one, 401 without a token', async () => {
    const [nobody] = await insertSubscribers(ctx, [buildSubscriber({ email: '' })]);
    const response = await api('GET', `/api/subscribers/${nobody?.id}/brochure/email`);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({
      code: 'subscribers.no_email',
      errors: [{ path: 'email', message: 'This subscriber has no email address.' }],
    });
    expect(await mailRepository.listMessages(ctx.database.db)).toHaveLength(0);
    expect(await historyOf(nobody?.id)).toHaveLength(1);
    expect((await api('GET', '/api/subscribers/999999/brochure/email')).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: `/api/subscribers/${nobody?.id}/brochure/email` })).statusCode).toBe(
      401,
    );
  });
});

describe('POST /api/subscribers/email/list', () => {
  it('queues one personalised message per matching subscriber with an email address, with history and an unsubscribe link', async () => {
    const saved = await seedLyon();
    const response = await api('POST', '/api/subscribers/email/list', emailList({ town: 'lyon' }));
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ queued: 2 });

    const messages = await mailRepository.listMessages(ctx.database.db);
    expect(messages.map((message) => [message.toAddress, message.subject])).toEqual([
      ['elodie@example.org', 'Nouvelles de Élodie'],
      ['marc@example.org', 'Nouvelles de Marc'],
    ]);
    expect(messages[0]?.textBody).toMatch(/^Bonjour Mme Élodie Dupont,\nÀ bientôt\.\n/);
    expect(messages[1]?.textBody).toMatch(/^Bonjour Marc Durand,\n/);
    const link = messages[0]?.textBody.match(/http:\/\/app\.test\/unsubscribe\?s=(\d+)&t=([\w-]+)/);
    expect(link?.[1]).toBe(String(saved[0]?.id));
    // The French footer of the settings (its default here), in text and as a link in HTML.
    expect(messages[0]?.textBody).toContain('\n\n--\nVous recevez ce message car vous êtes inscrit(e)');
    expect(messages[0]?.textBody).toContain(`Pour ne plus recevoir ces messages : ${link?.[0]}`);
    expect(messages[0]?.htmlBody).toContain(`<a href="${link?.[0].replace('&', '&amp;')}">`);

    expect((await historyOf(saved[0]?.id))[0]).toBe('Email sent: Nouvelles de Élodie');
    expect((await historyOf(saved[1]?.id))[0]).toBe('Email sent: Nouvelles de Marc');
    for (const other of [saved[2], saved[3], saved[4]]) {
      expect((await historyOf(other?.id)).some((line) => line.startsWith('Email sent'))).toBe(false);
    }
  });

  it('maps every filter of the form to the search, null and empty meaning none', async () => {
    await seedLyon();
    const count = async (filters: object) =>
      (await api('POST', '/api/subscribers/email/list', emailList(filters))).json().queued;
    expect(await count({})).toBe(3);
    expect(await count({ name: 'du', firstName: 'ma' })).toBe(1);
    expect(await count({ copies: 3 })).toBe(1);
    expect(await count({ receivingCopies: 3 })).toBe(1);
    expect(await count({ receivingCopies: true, copies: '' })).toBe(3);
    expect(await count({ country: '1', category: 0, pmeth: '', tag: null, status: '1' })).toBe(3);
    expect(await count({ status: 2 })).toBe(0);
    const today = calendarDay(new Date(), DEFAULT_TIME_ZONE); // the organisation's day (docs/decisions/012)
    expect(await count({ addedAfter: today, addedBefore: null })).toBe(3);
    expect(await count({ addedBefore: today })).toBe(0);
  });

  it('answers 400 with the form texts for a short subject or an empty message, and 401 without a token', async () => {
    const short = await api('POST', '/api/subscribers/email/list', emailList({ subject: 'Hé' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([{ path: 'subject', message: 'Subject is required' }]);
    const empty = await api('POST', '/api/subscribers/email/list', emailList({ message: '   ' }));
    expect(empty.json().errors).toEqual([{ path: 'message', message: 'Message is required' }]);
    const missing = await api('POST', '/api/subscribers/email/list', { message: 'x' });
    expect(missing.json().errors).toEqual([{ path: 'subject', message: 'Subject is required' }]);
    const badDate = await api('POST', '/api/subscribers/email/list', emailList({ addedAfter: '31/12/2026' }));
    expect(badDate.json().errors[0].path).toBe('addedAfter');
    const unauthenticated = await ctx.app.inject({
      method: 'POST',
      url: '/api/subscribers/email/list',
      payload: emailList(),
    });
    expect(unauthenticated.statusCode).toBe(401);
    const { tokens } = await createSignedInUser(ctx);
    const asUser = await ctx.app.inject({
      method: 'POST',
      url: '/api/subscribers/email/list',
      headers: bearer(tokens.id_token),
      payload: emailList(),
    });
    expect(asUser.statusCode).toBe(202);
  });

  it('works through the matches in batches without missing or repeating anyone', async () => {
    const saved = await insertSubscribers(
      ctx,
      Array.from({ length: 7 }, (_, index) => buildSubscriber({ email: `person${index}@example.org` })),
    );
    const subscribersRepository = createSubscribersRepository();
    const db = ctx.database.db;
    const service = createSubscriberEmailService({
      db,
      repository: createSubscriberEmailRepository(),
      subscribersRepository,
      subscribersService: createSubscribersService({ db, repository: subscribersRepository }),
      settingsService: createSettingsService({ db, repository: createSettingsRepository() }),
      mailRepository,
      unsubscribeTokens: createUnsubscribeTokens({ db, authRepository: createAuthRepository() }),
      publicUrl: 'http://app.test',
      mailFrom: 'Back office <no-reply@example.org>',
      onMailQueued: () => {},
      batchSize: 3,
    });
    const user = {
      id: 1,
      email: 'a@example.org',
      fullName: 'Batcher',
      role: 'User' as const,
      sessionId: 's',
    };
    const input = { ...emailList(), name: '', firstName: '', town: '', postcode: '', assoc: '' };
    const result = await service.sendToList(
      {
        ...input,
        category: '',
        country: '',
        pmeth: '',
        tag: '',
        copies: '',
        receivingCopies: '',
        status: '',
      },
      user,
    );
    expect(result).toMatchObject({ queued: 7 });
    const recipients = (await mailRepository.listMessages(db)).map((message) => message.toAddress).sort();
    expect(recipients).toEqual(saved.map((subscriber) => subscriber.email).sort());
  });

  it('delivers the messages to an SMTP server', async () => {
    await seedLyon();
    const sink = await startSmtpSink();
    try {
      const response = await api(
        'POST',
        '/api/subscribers/email/list',
        emailList({ subject: 'Assemblee generale {lastName}', town: 'Lyon' }),
      );
      expect(response.json()).toMatchObject({ queued: 2 });
      expect(await ctx.workerFor(sink.transport).runOnce()).toBe(2);
      expect(sink.received.map((message) => message.to)).toEqual([
        ['elodie@example.org'],
        ['marc@example.org'],
      ]);
      expect(sink.received[0]?.data).toContain('Subject: Assemblee generale Dupont');
      expect(sink.received[1]?.data).toContain('Subject: Assemblee generale Durand');
      expect(sink.received[0]?.data).toContain('http://app.test/unsubscribe?s=');
    } finally {
      await sink.close();
    }
  });
});

describe('the unsubscribe link', () => {
  async function linkFor(email: string) {
    const message = (await mailRepository.listMessages(ctx.database.db)).find(
      (row) => row.toAddress === email,
    );
    const match = message?.textBody.match(/http:\/\/app\.test(\/unsubscribe\?s=\d+&t=[\w-]+)/);
    if (!match?.[1]) throw new Error(`no unsubscribe link sent to ${email}`);
    return match[1];
  }

  it('takes the subscriber off the mailing list, writes history, and leaves them out of later bulk emails', async () => {
    const saved = await seedLyon();
    const elodie = saved[0];
    await api('PATCH', `/api/subscribers/${elodie?.id}`, {
      ...(await api('GET', `/api/subscribers/${elodie?.id}`)).json(),
      onMailChimpList: true,
    });
    await api('POST', '/api/subscribers/email/list', emailList({ town: 'lyon' }));
    const link = await linkFor('elodie@example.org');

    // Opening the link only asks to confirm: a mail scanner that follows links unsubscribes no one.
    const confirm = await ctx.app.inject({ url: link });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('<form method="post" action="/unsubscribe">');
    expect((await api('GET', `/api/subscribers/${elodie?.id}`)).json().onMailChimpList).toBe(true);
    const form = new URL(`http://x${link}`).searchParams;
    const submit = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/unsubscribe',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `s=${form.get('s')}&t=${form.get('t')}`,
      });
    const page = await submit();
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Désinscription enregistrée');
    expect(page.body).toContain('You are unsubscribed');
    expect(page.body).not.toContain('<script');

    const record = (await api('GET', `/api/subscribers/${elodie?.id}`)).json();
    expect(record).toMatchObject({ onMailChimpList: false, version: 3 });
    expect((await historyOf(elodie?.id))[0]).toBe('Unsubscribed from emails through the link.');
    // A second click changes nothing more.
    expect((await submit()).statusCode).toBe(200);
    expect((await historyOf(elodie?.id)).filter((line) => line.startsWith('Unsubscribed'))).toHaveLength(1);

    expect(
      (await api('POST', '/api/subscribers/email/list', emailList({ town: 'lyon' }))).json(),
    ).toMatchObject({
      queued: 1,
    });
    // Staff ticking "on mailing list" again, at their request, lets them receive bulk email again.
    await api('PATCH', `/api/subscribers/${elodie?.id}`, { ...record, onMailChimpList: true });
    expect(
      (await api('POST', '/api/subscribers/email/list', emailList({ town: 'lyon' }))).json(),
    ).toMatchObject({
      queued: 2,
    });
  });

  it('answers 400 with a page for a wrong, foreign or missing token, changing nothing', async () => {
    const saved = await seedLyon();
    await api('POST', '/api/subscribers/email/list', emailList({ town: 'lyon' }));
    const link = await linkFor('elodie@example.org');
    const token = new URL(`http://x${link}`).searchParams.get('t') ?? '';
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const url of [
      `/unsubscribe?s=${saved[0]?.id}&t=${forged}`,
      `/unsubscribe?s=${saved[1]?.id}&t=${token}`,
      `/unsubscribe?s=${saved[0]?.id}`,
      '/unsubscribe',
      `/unsubscribe?s=abc&t=${token}`,
      `/unsubscribe?s=${saved[0]?.id}&s=2&t=${token}`,
    ]) {
      const response = await ctx.app.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(response.body, url).toContain('This link is not valid');
      const posted = await ctx.app.inject({
        method: 'POST',
        url: '/unsubscribe',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URL(`http://x${url}`).searchParams.toString(),
      });
      expect(posted.statusCode, `POST ${url}`).toBe(400);
    }
    expect((await historyOf(saved[0]?.id)).some((line) => line.startsWith('Unsubscribed'))).toBe(false);
  });
});
