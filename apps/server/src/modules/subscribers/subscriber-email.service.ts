import type { EmailQueuedResult, SubscriberEmailList } from '@back-office/contract/subscribers';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { createSubscriberHasNoEmailError } from './subscriber-email.errors.ts';
import type { SubscriberEmailRepository } from './subscriber-email.repository.ts';
import { oneLine, personalise, withUnsubscribeFooter } from './subscriber-email-text.ts';
import type { UnsubscribeTokens } from './subscriber-email-token.ts';
import { createSubscriberNotFoundError } from './subscribers.errors.ts';
import type { SubscriberFilter, SubscribersRepository } from './subscribers.repository.ts';
import type { SubscribersService } from './subscribers.service.ts';

/** Recipients queued per transaction by a bulk email. */
export const BULK_EMAIL_BATCH_SIZE = 500;

/** The search filter of a bulk email payload (part 2 §3): the form's names mapped to the search's. */
export function emailListFilter(input: SubscriberEmailList): SubscriberFilter {
  return {
    firstname: input.firstName,
    name: input.name,
    assoc: input.assoc,
    town: input.town,
    postcode: input.postcode,
    country: input.country,
    category: input.category,
    pmeth: input.pmeth,
    tag: input.tag,
    copies: input.copies !== '' ? input.copies : input.receivingCopies,
    status: input.status,
    addedafter: input.addedAfter,
    addedbefore: input.addedBefore,
  };
}

/** The outcome of an unsubscribe link: `invalid` for a bad token or an unknown subscriber. */
export type UnsubscribeOutcome = { status: 'unsubscribed'; organisationName: string } | { status: 'invalid' };

/**
 * Emails to subscribers (part 2 §2.1 Email Subscribers, §2.2 Send Returned Brochure Email, §7;
 * docs/decisions/006). Every message goes through the outbox in the transaction that writes its history
 * line; the worker is woken (`onMailQueued`) once they are committed.
 */
export function createSubscriberEmailService({
  db,
  repository,
  subscribersRepository,
  subscribersService,
  settingsService,
  mailRepository,
  unsubscribeTokens,
  publicUrl,
  onMailQueued,
  batchSize = BULK_EMAIL_BATCH_SIZE,
}: {
  db: Database;
  repository: SubscriberEmailRepository;
  subscribersRepository: SubscribersRepository;
  subscribersService: SubscribersService;
  settingsService: SettingsService;
  mailRepository: MailRepository;
  unsubscribeTokens: UnsubscribeTokens;
  /** Base URL of the links in emails, without a trailing slash. */
  publicUrl: string;
  onMailQueued: () => void;
  batchSize?: number;
}) {
  /**
   * Queues one personalised message (`{title}`, `{firstName}`, `{lastName}`, `{organisationName}`
   * replaced), with its unsubscribe link, per subscriber matching `where` (a condition on `subscribers`)
   * who has an email address and has not unsubscribed, and writes "Email sent: {subject}" in each one's
   * history. Works in transactions of `batchSize` recipients (by id), so a large mailing never holds one
   * huge transaction and sending starts with the first batch. Used by the subscribers' and the sales'
   * bulk emails. Returns how many messages were queued.
   */
  async function sendToRecipients(
    where: SQL | undefined,
    { subject: subjectTemplate, message }: { subject: string; message: string },
    user: AuthUser,
  ): Promise<EmailQueuedResult> {
    const sign = await unsubscribeTokens.signer();
    const extra = { organisationName: (await settingsService.get()).organisationName };
    let queued = 0;
    let afterId = 0;
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        const recipients = await repository.recipientsBatch(tx, { where, afterId, limit: batchSize });
        const history = [];
        for (const recipient of recipients) {
          const subject = oneLine(personalise(subjectTemplate, recipient, extra));
          const link = `${publicUrl}/unsubscribe?s=${recipient.id}&t=${sign(recipient.id)}`;
          await mailRepository.enqueue(tx, {
            subscriberId: recipient.id,
            to: recipient.email,
            subject,
            text: withUnsubscribeFooter(personalise(message, recipient, extra), link),
          });
          history.push({
            subscriberId: recipient.id,
            userName: user.fullName,
            description: `Email sent: ${subject}`,
          });
        }
        await repository.addHistoryLines(tx, history);
        return recipients;
      });
      if (batch.length > 0) onMailQueued();
      queued += batch.length;
      const last = batch.at(-1);
      if (!last || batch.length < batchSize) break;
      afterId = last.id;
    }
    return { queued };
  }

  return {
    /**
     * `GET /api/subscribers/{id}/brochure/email`: queues the returned-brochure email (subject and text
     * from the settings, personalised) and writes "Returned brochure email sent." in the same transaction.
     * @throws 404 `subscribers.not_found`; 400 `subscribers.no_email` naming `email` when it has none.
     */
    sendReturnedBrochure: async (id: number, user: AuthUser): Promise<EmailQueuedResult> => {
      const settings = await settingsService.get();
      await db.transaction(async (tx) => {
        const row = await subscribersRepository.lockById(tx, id);
        if (!row || row.hidden) throw createSubscriberNotFoundError(`No subscriber has id ${id}.`);
        if (!row.email) {
          const message = 'This subscriber has no email address.';
          throw createSubscriberHasNoEmailError(message, [{ path: 'email', message }]);
        }
        const extra = { organisationName: settings.organisationName };
        await mailRepository.enqueue(tx, {
          subscriberId: id,
          to: row.email,
          subject: oneLine(personalise(settings.brochureEmailSubject, row, extra)),
          text: personalise(settings.brochureEmailText, row, extra),
        });
        await subscribersService.addHistory(tx, {
          subscriberId: id,
          userName: user.fullName,
          description: 'Returned brochure email sent.',
        });
      });
      onMailQueued();
      return { queued: 1 };
    },

    /**
     * `POST /api/subscribers/email/list`: the bulk email to the subscribers matching the search filters
     * (see {@link sendToRecipients}).
     */
    sendToList: (input: SubscriberEmailList, user: AuthUser): Promise<EmailQueuedResult> =>
      sendToRecipients(subscribersRepository.filterSql(emailListFilter(input)), input, user),

    sendToRecipients,

    /**
     * `POST /unsubscribe` (the confirmation form of `GET /unsubscribe?s={id}&t={token}`): with a valid token, sets "on mailing list" to false (version
     * up), records the opt-out and writes "Unsubscribed from emails through the link."; a second click
     * changes nothing more. Deleted subscribers are unsubscribed too.
     */
    /** True when `token` is the one emailed to `subscriberId` (nothing is changed). */
    checkUnsubscribeLink: (subscriberId: number, token: string) =>
      unsubscribeTokens.verify(subscriberId, token),

    unsubscribe: async (subscriberId: number, token: string): Promise<UnsubscribeOutcome> => {
      if (!(await unsubscribeTokens.verify(subscriberId, token))) return { status: 'invalid' };
      const found = await db.transaction(async (tx) => {
        const row = await subscribersRepository.lockById(tx, subscriberId);
        if (!row) return false;
        const already = !row.onMailChimpList && (await repository.hasOptedOut(tx, subscriberId));
        if (already) return true;
        if (row.onMailChimpList) {
          await subscribersRepository.update(tx, subscriberId, row.version, { onMailChimpList: false });
        }
        await repository.recordOptOut(tx, subscriberId);
        await subscribersService.addHistory(tx, {
          subscriberId,
          userName: 'Subscriber',
          description: 'Unsubscribed from emails through the link.',
        });
        return true;
      });
      if (!found) return { status: 'invalid' };
      const settings = await settingsService.get();
      return { status: 'unsubscribed', organisationName: settings.organisationName };
    },
  };
}

export type SubscriberEmailService = ReturnType<typeof createSubscriberEmailService>;
