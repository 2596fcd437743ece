import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryTransport, useTestApp } from '../../../test/context.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { createMailRepository } from './mail.repository.ts';
import { createCaptureTransport } from './mail.transport.ts';
import { createMailWorker, MAX_MAIL_ATTEMPTS, retryDelaySeconds } from './mail.worker.ts';

const ctx = useTestApp();
const mailRepository = createMailRepository();
const silent = { info: () => {}, warn: () => {} };

async function queue(count: number) {
  for (let index = 0; index < count; index += 1) {
    await mailRepository.enqueue(ctx.database.db, {
      to: `person${index}@example.org`,
      subject: `Message ${index}`,
      text: `Bonjour n°${index}, voilà.`,
    });
  }
}

describe('mail worker', () => {
  it('sends each due message once and marks it sent', async () => {
    await queue(3);
    expect(await ctx.worker.runOnce()).toBe(3);
    expect(ctx.transport.sent.map((message) => message.subject)).toEqual([
      'Message 0',
      'Message 1',
      'Message 2',
    ]);
    expect(await ctx.worker.runOnce()).toBe(0);
    const rows = await mailRepository.listMessages(ctx.database.db);
    expect(rows.every((row) => row.status === 'sent' && row.sentAt !== null && row.attempts === 1)).toBe(
      true,
    );
  });

  it('queues many messages at once, each with its own message id, and none when the transaction fails', async () => {
    const mails = Array.from({ length: 1201 }, (_, index) => ({
      to: `person${index}@example.org`,
      subject: `Message ${index}`,
      text: `Bonjour n°${index}.`,
    }));
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await mailRepository.enqueueMany(tx, mails);
        throw new Error('the action failed after queueing');
      }),
    ).rejects.toThrow('the action failed');
    expect(await mailRepository.listMessages(ctx.database.db)).toHaveLength(0);

    await ctx.database.db.transaction((tx) => mailRepository.enqueueMany(tx, mails));
    const rows = await mailRepository.listMessages(ctx.database.db);
    expect(rows).toHaveLength(1201);
    expect(new Set(rows.map((row) => row.messageId)).size).toBe(1201);
    expect(new Set(rows.map((row) => row.subject))).toEqual(new Set(mails.map((mail) => mail.subject)));
    expect(rows.every((row) => row.status === 'pending' && !row.fromOrganisation)).toBe(true);
  });

  it('retries a failed message later with back-off, then gives up and keeps the reason', async () => {
    await queue(1);
    ctx.transport.failWith = '421 try later';
    expect(await ctx.worker.runOnce()).toBe(1);
    let [row] = await mailRepository.listMessages(ctx.database.db);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: '421 try later' });
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // Not due yet: nothing is tried.
    expect(await ctx.worker.runOnce()).toBe(0);

    for (let attempt = 2; attempt <= MAX_MAIL_ATTEMPTS; attempt += 1) {
      await ctx.database.db.execute('update outbox_messages set next_attempt_at = now()' as never);
      await ctx.worker.runOnce();
    }
    [row] = await mailRepository.listMessages(ctx.database.db);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_MAIL_ATTEMPTS, lastError: '421 try later' });
    expect(ctx.transport.sent).toHaveLength(0);
  });

  it('spaces retries: 30 s, 1 min, 2 min ... at most 1 h', () => {
    expect([1, 2, 3, 8, 20].map(retryDelaySeconds)).toEqual([30, 60, 120, 3600, 3600]);
  });

  it('never sends a message twice when two workers run at once', async () => {
    await queue(40);
    const first = createMemoryTransport();
    const second = createMemoryTransport();
    const workers = [first, second].map((transport) =>
      createMailWorker({
        db: ctx.database.db,
        mailRepository,
        transport,
        logger: silent,
        pollIntervalMs: 60_000,
        batchSize: 5,
      }),
    );
    await Promise.all(workers.map((worker) => worker.runOnce()));
    const subjects = [...first.sent, ...second.sent].map((message) => message.subject).sort();
    expect(subjects).toHaveLength(40);
    expect(new Set(subjects).size).toBe(40);
  });

  it('sends a message claimed by a worker that stopped again once its lease ran out, with the same Message-ID', async () => {
    await queue(2);
    // A worker leased both, then the process died before recording any outcome.
    const leased = await mailRepository.claimDue(ctx.database.db, { limit: 20, lockSeconds: 60 });
    expect(leased.map((message) => message.interrupted)).toEqual([false, false]);
    const warnings: string[] = [];
    const worker = createMailWorker({
      db: ctx.database.db,
      mailRepository,
      transport: ctx.transport,
      logger: { info: () => {}, warn: (_obj, msg) => warnings.push(msg) },
      pollIntervalMs: 60_000,
    });
    // Leased: nobody else touches them.
    expect(await worker.runOnce()).toBe(0);
    await ctx.database.db.execute(
      "update outbox_messages set locked_until = now() - interval '1 second'" as never,
    );
    expect(await worker.runOnce()).toBe(2);
    expect(ctx.transport.sent.map((message) => message.messageId)).toEqual(
      leased.map((row) => row.messageId),
    );
    expect(warnings).toEqual([
      'mail claimed again after its worker stopped (same Message-ID)',
      'mail claimed again after its worker stopped (same Message-ID)',
    ]);
    const rows = await mailRepository.listMessages(ctx.database.db);
    expect(rows.map((row) => [row.status, row.attempts, row.lockedUntil])).toEqual([
      ['sent', 2, null],
      ['sent', 2, null],
    ]);
  });

  it('never sends again a message the SMTP server accepted when recording it failed', async () => {
    await queue(1);
    let failures = 1;
    const flaky = {
      ...mailRepository,
      markSent: async (db: Parameters<typeof mailRepository.markSent>[0], input: { id: number }) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('Connection terminated unexpectedly');
        }
        return mailRepository.markSent(db, input);
      },
    };
    const worker = createMailWorker({
      db: ctx.database.db,
      mailRepository: flaky,
      transport: ctx.transport,
      logger: silent,
      pollIntervalMs: 60_000,
      leaseSeconds: 1,
    });
    await expect(worker.runOnce()).rejects.toThrow('Connection terminated');
    // The lease runs out while the database is away; the next pass records the send first.
    await ctx.database.db.execute(
      "update outbox_messages set locked_until = now() - interval '1 second'" as never,
    );
    expect(await worker.runOnce()).toBe(0);
    expect(ctx.transport.sent).toHaveLength(1);
    const [row] = await mailRepository.listMessages(ctx.database.db);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('captures messages as .eml files when there is no SMTP server', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mail-'));
    const worker = createMailWorker({
      db: ctx.database.db,
      mailRepository,
      transport: createCaptureTransport({ dir, from: 'Back office <no-reply@example.org>', log: () => {} }),
      logger: silent,
      pollIntervalMs: 60_000,
    });
    await mailRepository.enqueue(ctx.database.db, {
      to: 'zoe@example.org',
      subject: 'Reçu fiscal',
      text: 'Merci pour votre don.',
      attachments: [{ filename: 'recu.pdf', contentType: 'application/pdf', contentBase64: 'JVBERi0=' }],
    });
    expect(await worker.runOnce()).toBe(1);
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    const eml = await readFile(path.join(dir, files[0] ?? ''), 'utf8');
    expect(eml).toContain('To: zoe@example.org');
    expect(eml).toContain('From: Back office <no-reply@example.org>');
    expect(eml).toMatch(/Subject: =\?UTF-8\?Q\?Re=C3=A7u_fiscal\?=/);
    expect(eml).toContain('filename=recu.pdf');
  });

  it('delivers over SMTP', async () => {
    const sink = await startSmtpSink();
    try {
      await queue(2);
      expect(await ctx.workerFor(sink.transport).runOnce()).toBe(2);
      expect(sink.received).toHaveLength(2);
      expect(sink.received[0]?.data).toContain('Subject: Message 0');
    } finally {
      await sink.close();
    }
  });
});
