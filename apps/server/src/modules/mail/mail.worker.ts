import type { Database } from '../../db/client.ts';
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
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  let again = false;

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

  /** Processes due messages until none are left; concurrent calls share one run. */
  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          let batch = await processBatch();
          total += batch;
          while (batch === batchSize && !stopped) {
            batch = await processBatch();
            total += batch;
          }
        } while (again && !stopped);
      } finally {
        running = undefined;
      }
      return total;
    })();
    return running;
  }

  function tick() {
    runOnce()
      .catch((error: unknown) =>
        logger.warn({ reason: String(error) }, 'mail worker could not reach the database'),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollIntervalMs);
      });
  }

  return {
    runOnce,
    /** Asks for a run soon (after a message was queued). */
    nudge: () => {
      if (!stopped) setImmediate(() => void runOnce().catch(() => {}));
    },
    start: () => {
      stopped = false;
      timer = setTimeout(tick, 0);
    },
    /** Stops polling and waits for the message in hand to finish. */
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

export type MailWorker = ReturnType<typeof createMailWorker>;
