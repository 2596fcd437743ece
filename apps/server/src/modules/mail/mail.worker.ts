import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { Database } from '../../db/client.ts';
import { createPollingWorker } from '../../lib/polling-worker.ts';
import { databaseUnavailableReason } from '../../lib/postgres-errors.ts';
import type { JobContext } from '../jobs/jobs.runner.ts';
import type { MailRepository } from './mail.repository.ts';
import type { OutboxMessageRow } from './mail.table.ts';
import type { MailSender, MailTransport } from './mail.transport.ts';

export const MAX_MAIL_ATTEMPTS = 8;

/** Messages leased per claim unless told otherwise. */
export const DEFAULT_MAIL_BATCH_SIZE = 20;

/** How long a claimed message is reserved for the worker that sends it, unless told otherwise. */
export const DEFAULT_MAIL_LEASE_SECONDS = 120;

/** Seconds to wait before attempt `attempts + 1`: 30 s, 1 min, 2 min ... capped at 1 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/** `text` with every email address replaced by `[address]` (SMTP errors often name the recipient). */
export function withoutEmailAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]');
}

/**
 * The mail worker: claims due outbox messages and hands them to the transport, retrying with
 * back-off and giving up after {@link MAX_MAIL_ATTEMPTS} (docs/decisions/002).
 * `runOnce()` processes what is due now and resolves with how many messages were tried.
 *
 * Delivery is at least once, and as close to exactly once as SMTP allows (docs/decisions/008):
 * - messages are leased (`claimDue`, its own commit) before any SMTP call, and each is marked sent
 *   right after the server's 250, one at a time, so at any moment at most one message per worker
 *   has been accepted by the SMTP server without being recorded;
 * - after a crash, the leased messages are due again once their lease (`leaseSeconds`) runs out,
 *   and go out with the SAME Message-ID, so a receiving system that de-duplicates on Message-ID
 *   shows the one in doubt once; they are logged as "claimed again after its worker stopped";
 * - when the database fails right after a 250, the message is remembered in memory and recorded as
 *   sent before anything else on the next pass, never sent again by this process.
 * What remains: a process killed between the SMTP server's 250 and the commit of `markSent` (one
 * short UPDATE, about a millisecond when the machine is idle), or a database outage longer than the
 * lease right after a 250, sends that one message twice with the same Message-ID. No protocol can
 * close this window: SMTP has no two-phase commit (RFC 1047). Keep `leaseSeconds` longer than the
 * transport's slowest send, or another worker may take over a slow send.
 */
export function createMailWorker({
  db,
  mailRepository,
  transport,
  logger,
  pollIntervalMs,
  leaseSeconds = DEFAULT_MAIL_LEASE_SECONDS,
  batchSize = DEFAULT_MAIL_BATCH_SIZE,
  loadSender = async () => () => undefined,
}: {
  db: Database;
  mailRepository: MailRepository;
  transport: MailTransport;
  logger: Logger;
  pollIntervalMs: number;
  leaseSeconds?: number;
  /** Messages leased per claim: fewer queries, but as many messages wait for the lease after a crash. */
  batchSize?: number;
  /**
   * Reads, once per batch, who each message is from (the settings' sender for messages to subscribers);
   * undefined means `MAIL_FROM`. By default every message is from `MAIL_FROM`.
   */
  loadSender?: () => Promise<(message: OutboxMessageRow) => MailSender | undefined>;
}) {
  // Accepted by the SMTP server, not yet recorded as sent because the database failed.
  const unrecorded = new Set<number>();

  async function recordSent(id: number) {
    unrecorded.add(id);
    await mailRepository.markSent(db, { id });
    unrecorded.delete(id);
  }

  async function processBatch(): Promise<number> {
    for (const id of [...unrecorded]) await recordSent(id);
    // Read before leasing, so that a failure here leaves no message leased.
    const senderOf = await loadSender();
    const messages = await mailRepository.claimDue(db, { limit: batchSize, lockSeconds: leaseSeconds });
    for (const message of messages) {
      if (message.interrupted) {
        logger.warn(
          { mailId: message.id, attempts: message.attempts },
          'mail claimed again after its worker stopped (same Message-ID)',
        );
      }
      const startedAt = Date.now();
      try {
        await transport.send(message, senderOf(message));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const giveUp = message.attempts >= MAX_MAIL_ATTEMPTS;
        await mailRepository.markFailedAttempt(db, {
          id: message.id,
          error: reason,
          delaySeconds: retryDelaySeconds(message.attempts),
          giveUp,
        });
        // The outbox keeps the whole reason for staff; the log gets it without addresses
        // (docs/security.md §Input, output and headers).
        logger.warn(
          { mailId: message.id, attempts: message.attempts, reason: withoutEmailAddresses(reason) },
          giveUp ? 'mail failed' : 'mail retry',
        );
        continue;
      }
      await recordSent(message.id);
      logger.info({ mailId: message.id }, 'mail sent');
      if (Date.now() - startedAt > leaseSeconds * 1000) {
        logger.warn(
          { mailId: message.id },
          'mail took longer than its lease: another worker may have sent it too',
        );
      }
    }
    return messages.length;
  }

  const poller = createPollingWorker({
    pollIntervalMs,
    // The reason, not Drizzle's message: that quotes the query's values (an SMTP error naming the recipient).
    onError: (error) =>
      logger.warn(
        {
          reason:
            databaseUnavailableReason(error) ??
            String(error instanceof DrizzleQueryError ? error.cause : error),
        },
        'mail worker could not reach the database',
      ),
    work: (shouldStop) => drain(shouldStop),
  });

  /** Batches until a batch comes back short (what is due now is all sent); `onBatch` gets each count. */
  async function drain(shouldStop: () => boolean, onBatch: (tried: number) => void = () => {}) {
    let total = 0;
    let batch: number;
    do {
      batch = await processBatch();
      total += batch;
      if (batch > 0) onBatch(batch);
    } while (batch === batchSize && !shouldStop());
    return total;
  }

  return {
    ...poller,
    /**
     * The handler of the repeating `mail.outbox` job (docs/decisions/013): sends what is due now,
     * reporting as progress the messages tried of those that were due when the pass began.
     */
    runJob: async ({ shouldStop, progress }: JobContext): Promise<undefined> => {
      const due = await mailRepository.countDue(db);
      if (due === 0) return;
      let tried = 0;
      progress(0, due);
      await drain(shouldStop, (batch) => {
        tried += batch;
        progress(Math.min(tried, due), due);
      });
    },
  };
}

export type MailWorker = ReturnType<typeof createMailWorker>;
