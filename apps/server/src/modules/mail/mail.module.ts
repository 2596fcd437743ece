import type { AppModule, ModuleContext } from '../app-module.ts';
import type { MailRepository } from './mail.repository.ts';
import type { MailTransport } from './mail.transport.ts';
import { createMailWorker } from './mail.worker.ts';

/**
 * The outbox's sending side (docs/decisions/002): with a transport, the repeating `mail.outbox` job
 * sends what is due every `MAIL_POLL_INTERVAL_MS`, and at once when mail is queued.
 */
export function createMailModule(
  { db, config }: ModuleContext,
  needs: {
    mailRepository: MailRepository;
    transport?: MailTransport;
    logger: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
  },
) {
  const transport = needs.transport;
  const worker =
    transport &&
    createMailWorker({
      db,
      mailRepository: needs.mailRepository,
      transport,
      logger: needs.logger,
      pollIntervalMs: config.mailPollIntervalMs,
      leaseSeconds: config.mailLeaseSeconds,
    });
  return {
    name: 'mail',
    register: async () => {},
    jobs: worker
      ? [
          {
            kind: 'mail.outbox',
            handler: worker.runJob,
            repeat: {
              title: 'Mail outbox',
              everyMs: config.mailPollIntervalMs,
              leaseSeconds: config.mailLeaseSeconds,
            },
          },
        ]
      : [],
  } satisfies AppModule & Record<string, unknown>;
}
