import type { AppModule, ModuleContext } from '../app-module.ts';
import type { MailRepository } from './mail.repository.ts';
import { mailRoutes } from './mail.routes.ts';
import { createMailService, createSenderLoader } from './mail.service.ts';
import type { MailTransport } from './mail.transport.ts';
import { createMailWorker } from './mail.worker.ts';

/**
 * How many `mail.outbox` jobs exist: up to this many server processes send at once, each draining
 * the outbox (messages are leased one by one, so they never send the same one).
 */
export const MAIL_SENDERS = 2;

/**
 * The outbox's sending side (docs/decisions/002): with a transport, the repeating `mail.outbox` job
 * sends what is due every `MAIL_POLL_INTERVAL_MS`, and at once when mail is queued; {@link MAIL_SENDERS} of them let two processes share a bulk email.
 * Messages to subscribers are from the settings' sender (`MAIL_FROM` without one). Its routes report
 * a bulk email's progress and retry its failed messages.
 */
export function createMailModule(
  { db, config, onMailQueued }: ModuleContext,
  needs: {
    mailRepository: MailRepository;
    settingsService: { get: () => Promise<{ emailSenderName: string; emailSenderAddress: string }> };
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
      loadSender: createSenderLoader(needs.settingsService),
    });
  const service = createMailService({ db, mailRepository: needs.mailRepository, onMailQueued });
  return {
    name: 'mail',
    register: async (app) => {
      await app.register(mailRoutes, { mailService: service });
    },
    jobs: worker
      ? [
          {
            kind: 'mail.outbox',
            handler: worker.runJob,
            repeat: {
              title: 'Mail outbox',
              everyMs: config.mailPollIntervalMs,
              leaseSeconds: config.mailLeaseSeconds,
              instances: MAIL_SENDERS,
              hasWork: () => needs.mailRepository.hasDue(db),
            },
          },
        ]
      : [],
  } satisfies AppModule & Record<string, unknown>;
}
