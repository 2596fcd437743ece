import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { createMailRepository } from '../mail/mail.repository.ts';

const ctx = useTestApp();
const mailRepository = createMailRepository();

let token = '';
async function api(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  token ||= (await login(ctx)).id_token;
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

const bulkEmail = {
  subject: 'Nouvelles de {firstName}',
  message: 'Bonjour {firstName},\nÀ bientôt.',
  name: null,
  firstName: null,
  town: 'Annecy',
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
};

/** Two subscribers of Annecy, each with a receipt email and a bulk email queued (4 messages, none sent). */
async function seed() {
  token = '';
  const [leaving, staying] = await insertSubscribers(ctx, [
    buildSubscriber({ firstName: 'Léa', town: 'Annecy', email: 'lea@example.org' }),
    buildSubscriber({ firstName: 'Paul', town: 'Annecy', email: 'paul@example.org' }),
  ]);
  if (!leaving || !staying) throw new Error('no subscribers');
  for (const subscriber of [leaving, staying]) {
    const gift = (
      await api('POST', '/api/donations', { subid: subscriber.id, amount: 20, donationDate: '2026-03-01' })
    ).json() as { id: number };
    expect((await api('GET', `/api/donations/email/${gift.id}`)).statusCode).toBe(200);
  }
  expect((await api('POST', '/api/subscribers/email/list', bulkEmail)).json()).toMatchObject({ queued: 2 });
  return { leaving, staying };
}

/** The subscriber's history lines, newest first. */
async function historyOf(id: number): Promise<string[]> {
  const entries = (await api('GET', `/api/subscribers/${id}/history`)).json() as Array<{
    description: string;
  }>;
  return entries.map((entry) => entry.description);
}

const recipients = () => ctx.transport.sent.map((message) => message.toAddress).sort();

describe('deleting a subscriber and the mail queued for them', () => {
  it('sends none of their queued receipt and bulk emails, still sends the others, and says so in the history', async () => {
    const { leaving, staying } = await seed();
    expect((await api('DELETE', `/api/subscribers/${leaving.id}`)).statusCode).toBe(204);

    expect(await ctx.worker.runOnce()).toBe(2);
    expect(recipients()).toEqual(['paul@example.org', 'paul@example.org']);
    expect(await ctx.worker.runOnce()).toBe(0);

    const rows = await mailRepository.listMessages(ctx.database.db);
    const theirs = rows.filter((row) => row.subscriberId === leaving.id);
    expect(theirs).toHaveLength(2);
    expect(
      theirs.every((row) => row.status === 'cancelled' && row.cancelReason === 'Subscriber deleted.'),
    ).toBe(true);
    expect(rows.filter((row) => row.subscriberId === staying.id).map((row) => row.status)).toEqual([
      'sent',
      'sent',
    ]);

    expect((await historyOf(leaving.id)).slice(0, 2).sort()).toEqual([
      '2 queued emails cancelled.',
      'Subscriber deleted.',
    ]);
  });

  it('lets a message being sent at the delete go once, and never sends or retries the others', async () => {
    const { leaving } = await seed();
    // A worker leases every message (the "being sent" state), then the subscriber is deleted.
    const claimed = await mailRepository.claimDue(ctx.database.db, { limit: 10, lockSeconds: 120 });
    expect(claimed).toHaveLength(4);
    expect((await api('DELETE', `/api/subscribers/${leaving.id}`)).statusCode).toBe(204);
    // Messages being sent are left to their worker: nothing is cancelled under it.
    const [beingSent, interrupted] = claimed.filter((row) => row.subscriberId === leaving.id);
    if (!beingSent || !interrupted) throw new Error('no messages for the deleted subscriber');
    const leased = await mailRepository.listMessages(ctx.database.db);
    expect(leased.filter((row) => row.subscriberId === leaving.id).map((row) => row.status)).toEqual([
      'pending',
      'pending',
    ]);
    expect((await historyOf(leaving.id))[0]).toBe('Subscriber deleted.');

    // The worker holding the first sends it and records it.
    await ctx.transport.send(beingSent);
    await mailRepository.markSent(ctx.database.db, { id: beingSent.id });
    // The worker holding the second stops: its lease runs out, the other messages' too.
    await ctx.database.db.execute(
      `update outbox_messages set locked_until = now() - interval '1 second' where status = 'pending'` as never,
    );
    expect(await ctx.worker.runOnce()).toBe(2);
    expect(await ctx.worker.runOnce()).toBe(0);
    expect(recipients()).toEqual(['lea@example.org', 'paul@example.org', 'paul@example.org']);
    const rows = await mailRepository.listMessages(ctx.database.db);
    expect(rows.find((row) => row.id === beingSent.id)?.status).toBe('sent');
    expect(rows.find((row) => row.id === interrupted.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Subscriber deleted.',
    });
  });

  it('does not retry a message whose send failed while its subscriber was being deleted', async () => {
    const { leaving } = await seed();
    const claimed = await mailRepository.claimDue(ctx.database.db, { limit: 10, lockSeconds: 120 });
    expect((await api('DELETE', `/api/subscribers/${leaving.id}`)).statusCode).toBe(204);
    for (const message of claimed) {
      await mailRepository.markFailedAttempt(ctx.database.db, {
        id: message.id,
        error: '421 try later',
        delaySeconds: 0,
        giveUp: false,
      });
    }
    const rows = await mailRepository.listMessages(ctx.database.db);
    expect(rows.filter((row) => row.subscriberId === leaving.id).map((row) => row.status)).toEqual([
      'cancelled',
      'cancelled',
    ]);
    // The other subscriber's messages are tried again, as any failed message.
    expect(rows.filter((row) => row.subscriberId !== leaving.id).map((row) => row.status)).toEqual([
      'pending',
      'pending',
    ]);
    expect(await ctx.worker.runOnce()).toBe(2);
    expect(recipients()).toEqual(['paul@example.org', 'paul@example.org']);
  });

  it('writes no cancellation line when nothing was queued for them', async () => {
    token = '';
    const [alone] = await insertSubscribers(ctx, [buildSubscriber({ email: 'alone@example.org' })]);
    if (!alone) throw new Error('no subscriber');
    expect((await api('DELETE', `/api/subscribers/${alone.id}`)).statusCode).toBe(204);
    const history = await historyOf(alone.id);
    expect(history[0]).toBe('Subscriber deleted.');
    expect(history.some((line) => line.includes('cancelled'))).toBe(false);
  });
});
