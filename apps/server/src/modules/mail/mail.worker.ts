import type { Database } from '../../db/client.ts';
import { createPollingWorker } from '../../lib/polling-worker.ts';
import type { MailRepository } from './mail.repository.ts';
import type { MailTransport } from './mail.transport.ts';

export const MAX_MAIL_ATTEMPTS = 8;

/** Seconds to wait before attempt `attempts + 1`: 30 s, 1 min, 2 min ... capped at 1 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/**
 * The mail worker: claims due outbox messages and hands them to the transport, retrying with
 * back-off and giving up after {@link MAX_MAIL_ATTEMPTS} (issue 2 §6).
 * `runOnce()` processes what is due now and resolves with how many messages were tried.
 */
export function createMailWorker({
  db,
  mailRepository,
  transport,
  logger,
  pollIntervalMs,
  batchSize = 20,
}: {
  db: Database;
  mailRepository: MailRepository;
  transport: MailTransport;
  logger: Logger;
  pollIntervalMs: number;
  batchSize?: number;
}) {
  async function processBatch(): Promise<number> {
    const messages = await mailRepository.claimDue(db, { limit: batchSize, lockSeconds: 120 });
    for (const message of messages) {
      try {
        await transport.send(message);
        await mailRepository.markSent(db, { id: message.id });
        logger.info({ mailId: message.id }, 'mail sent');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const giveUp = message.attempts >= MAX_MAIL_ATTEMPTS;
        await mailRepository.markFailedAttempt(db, {
          id: message.id,
          error: reason,
          delaySeconds: retryDelaySeconds(message.attempts),
          giveUp,
        });
        logger.warn(
          { mailId: message.id, attempts: message.attempts, reason },
          giveUp ? 'mail failed' : 'mail retry',
        );
      }
    }
    return messages.length;
  }

  return createPollingWorker({
    pollIntervalMs,
    onError: (error) => logger.warn({ reason: String(error) }, 'mail worker could not reach the database'),
    // Batches until a batch comes back short: what is due now is all sent.
    work: async (shouldStop) => {
      let total = 0;
      let batch: number;
      do {
        batch = await processBatch();
        total += batch;
      } while (batch === batchSize && !shouldStop());
      return total;
    },
  });
}

export type MailWorker = ReturnType<typeof createMailWorker>;
