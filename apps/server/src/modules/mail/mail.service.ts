import type { BulkEmailRetryResult, BulkEmailSendProgress } from '@back-office/contract/mail';
import type { Database } from '../../db/client.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import { createMailSendForbiddenError, createMailSendNotFoundError } from './mail.errors.ts';
import type { MailRepository } from './mail.repository.ts';
import type { OutboxMessageRow } from './mail.table.ts';
import type { MailSender } from './mail.transport.ts';

/**
 * The organisation's sender of the settings: `emailSenderName <emailSenderAddress>`, replies to the
 * same address; undefined without an address (then `MAIL_FROM` sends).
 */
export function organisationSender(settings: {
  emailSenderName: string;
  emailSenderAddress: string;
}): MailSender | undefined {
  const address = settings.emailSenderAddress.trim();
  if (!address) return undefined;
  return { from: { name: settings.emailSenderName.trim(), address }, replyTo: address };
}

/**
 * Who each message is from, read once from the settings: the organisation's sender for messages
 * marked `fromOrganisation` (those to subscribers), `MAIL_FROM` (undefined) for the rest.
 */
export function createSenderLoader(settings: {
  get: () => Promise<{ emailSenderName: string; emailSenderAddress: string }>;
}) {
  return async () => {
    const sender = organisationSender(await settings.get());
    return (message: OutboxMessageRow) => (message.fromOrganisation ? sender : undefined);
  };
}

/** Progress and retry of bulk emails (part 2 §2.1 Subscribers, §2.5 Sales list screen). */
export function createMailService({
  db,
  mailRepository,
  onMailQueued,
}: {
  db: Database;
  mailRepository: MailRepository;
  onMailQueued: () => void;
}) {
  async function findSend(id: number) {
    const send = await mailRepository.findSend(db, id);
    if (!send) throw createMailSendNotFoundError(`No bulk email has id ${id}.`);
    return send;
  }

  return {
    /**
     * `GET /api/mail/sends/{id}`: the messages of bulk email `id` by state (any signed-in user).
     * @throws 404 `mail.send_not_found`.
     */
    progress: async (id: number): Promise<BulkEmailSendProgress> => {
      const send = await findSend(id);
      const counts = await mailRepository.countSendMessages(db, id);
      return {
        id: send.id,
        subject: send.subject,
        createdBy: send.userName,
        createdAt: send.createdAt.toISOString(),
        ...counts,
      };
    },

    /**
     * `POST /api/mail/sends/{id}/retry`: queues the failed messages of bulk email `id` again and wakes
     * the outbox. @throws 404 `mail.send_not_found`; 403 `mail.send_forbidden` unless `user` sent it
     * or is an Administrator.
     */
    retryFailed: async (id: number, user: AuthUser): Promise<BulkEmailRetryResult> => {
      const send = await findSend(id);
      if (user.role !== 'Administrator' && send.userId !== user.id) {
        throw createMailSendForbiddenError('Only its sender or an Administrator may retry this email.');
      }
      const retried = await mailRepository.retryFailedOfSend(db, id);
      if (retried > 0) onMailQueued();
      return { retried };
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
