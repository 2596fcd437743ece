import { fillTemplate } from '@back-office/contract/email-templates';
import type { BulkEmailPreview, BulkEmailQueuedResult } from '@back-office/contract/mail';
import type {
  EmailQueuedResult,
  SubscriberEmailList,
  SubscriberEmailPreview,
} from '@back-office/contract/subscribers';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { composeEmail, textToHtml } from '../../lib/email-html.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { createSubscriberHasNoEmailError } from './subscriber-email.errors.ts';
import type { SubscriberEmailRepository } from './subscriber-email.repository.ts';
import { type EmailRecipient, oneLine, personalise, withUnsubscribeFooter } from './subscriber-email-text.ts';
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

/** The address of a `Name <address>` sender, or the whole text when it has no angle brackets. */
export function senderAddress(sender: string): string {
  return (/<([^>]+)>/.exec(sender)?.[1] ?? sender).trim();
}

/**
 * The header fields of a bulk message (RFC 2369, RFC 8058): `List-Unsubscribe` with a mailto to the
 * organisation and the subscriber's https link, which unsubscribes in one POST
 * (`List-Unsubscribe-Post: List-Unsubscribe=One-Click`).
 */
export function listUnsubscribeHeaders(mailto: string, link: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<mailto:${mailto}?subject=unsubscribe>, <${link}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** The prefix of the subject of a bulk email's test, sent to the signed-in user. */
export const TEST_EMAIL_SUBJECT_PREFIX = '[Test] ';

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
  mailFrom,
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
  /** `MAIL_FROM`, whose address the mailto of `List-Unsubscribe` uses when the settings have none. */
  mailFrom: string;
  onMailQueued: () => void;
  batchSize?: number;
}) {
  /**
   * Subject, text and HTML of a bulk email as `recipient` gets it, ending with the settings' footer
   * (`bulkEmailFooter`, French by default) filled with `link` to unsubscribe.
   */
  function render(
    recipient: EmailRecipient,
    { subject, message }: { subject: string; message: string },
    extra: { organisationName: string; footer: string },
    link: string,
  ) {
    const footer = fillTemplate(extra.footer, {
      organisationName: extra.organisationName,
      unsubscribeLink: link,
    });
    const text = withUnsubscribeFooter(personalise(message, recipient, extra), footer);
    return { subject: oneLine(personalise(subject, recipient, extra)), text, html: textToHtml(text) };
  }

  /** What `render` needs of the settings. */
  async function renderContext() {
    const settings = await settingsService.get();
    return { organisationName: settings.organisationName, footer: settings.bulkEmailFooter };
  }

  /** The link shown in previews and tests: it unsubscribes no one (its page says it is not valid). */
  const exampleLink = () => `${publicUrl}/unsubscribe`;

  /**
   * Queues one personalised message (`{title}`, `{firstName}`, `{lastName}`, `{organisationName}`
   * replaced), as text and HTML, ending with the settings' footer and its unsubscribe link, also in
   * `List-Unsubscribe` (mailto to the
   * settings' sender address, else `MAIL_FROM`'s; one-click https), per subscriber matching `where` (a
   * condition on `subscribers`) who has an email address and has not unsubscribed, and writes "Email
   * sent: {subject}" in each one's history. The messages belong to one recorded send (`sendId`, its
   * progress at `GET /api/mail/sends/{id}`), made with the first batch. Works in transactions of
   * `batchSize` recipients (by id), so a large mailing never holds one huge transaction and sending
   * starts with the first batch. Used by the subscribers' and the sales' bulk emails. Returns how many
   * messages were queued and the send's id.
   */
  async function sendToRecipients(
    where: SQL | undefined,
    content: { subject: string; message: string },
    user: AuthUser,
  ): Promise<BulkEmailQueuedResult> {
    const sign = await unsubscribeTokens.signer();
    const settings = await settingsService.get();
    const extra = { organisationName: settings.organisationName, footer: settings.bulkEmailFooter };
    const mailto = settings.emailSenderAddress.trim() || senderAddress(mailFrom);
    let sendId: number | undefined;
    let queued = 0;
    let afterId = 0;
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        sendId ??= (
          await mailRepository.createSend(tx, {
            userId: user.id,
            userName: user.fullName,
            subject: oneLine(content.subject),
          })
        ).id;
        const recipients = await repository.recipientsBatch(tx, { where, afterId, limit: batchSize });
        const history = [];
        const mails = [];
        for (const recipient of recipients) {
          const link = `${publicUrl}/unsubscribe?s=${recipient.id}&t=${sign(recipient.id)}`;
          const { subject, text, html } = render(recipient, content, extra, link);
          mails.push({
            subscriberId: recipient.id,
            sendId,
            to: recipient.email,
            subject,
            text,
            html,
            headers: listUnsubscribeHeaders(mailto, link),
          });
          history.push({
            subscriberId: recipient.id,
            userName: user.fullName,
            description: `Email sent: ${subject}`,
          });
        }
        await mailRepository.enqueueMany(tx, mails);
        await repository.addHistoryLines(tx, history);
        return recipients;
      });
      if (batch.length > 0) onMailQueued();
      queued += batch.length;
      const last = batch.at(-1);
      if (!last || batch.length < batchSize) break;
      afterId = last.id;
    }
    if (sendId === undefined) throw new Error('the bulk email was not recorded');
    return { queued, sendId };
  }

  /**
   * Before a bulk email to the subscribers matching `where`: how many it reaches, how many it skips
   * and why, and the message as the first recipient gets it (null when it reaches nobody).
   */
  async function previewRecipients(
    where: SQL | undefined,
    content: { subject: string; message: string },
  ): Promise<BulkEmailPreview> {
    const extra = await renderContext();
    const audience = await repository.countAudience(db, where);
    const [first] = await repository.recipientsBatch(db, { where, afterId: 0, limit: 1 });
    return {
      ...audience,
      preview: first ? { to: first.email, ...render(first, content, extra, exampleLink()) } : null,
    };
  }

  /**
   * The test of a bulk email: the message the first recipient matching `where` would get (no one's
   * values when it reaches nobody), subject prefixed "[Test] ", queued to `user`'s own address from the
   * organisation's sender. Its unsubscribe link is an example; no history is written.
   */
  async function sendTest(
    where: SQL | undefined,
    content: { subject: string; message: string },
    user: AuthUser,
  ): Promise<EmailQueuedResult> {
    const extra = await renderContext();
    const [first] = await repository.recipientsBatch(db, { where, afterId: 0, limit: 1 });
    const recipient = first ?? { title: '', firstName: '', lastName: '' };
    const { subject, text, html } = render(recipient, content, extra, exampleLink());
    await mailRepository.enqueue(db, {
      to: user.email,
      subject: oneLine(`${TEST_EMAIL_SUBJECT_PREFIX}${subject}`),
      text,
      html,
      fromOrganisation: true,
    });
    onMailQueued();
    return { queued: 1 };
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
        const email = composeEmail(
          { subject: settings.brochureEmailSubject, text: settings.brochureEmailText },
          {
            title: row.title,
            firstName: row.firstName,
            lastName: row.lastName,
            organisationName: settings.organisationName,
          },
        );
        await mailRepository.enqueue(tx, { subscriberId: id, to: row.email, ...email });
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
    sendToList: (input: SubscriberEmailList, user: AuthUser): Promise<BulkEmailQueuedResult> =>
      sendToRecipients(subscribersRepository.filterSql(emailListFilter(input)), input, user),

    /**
     * `POST /api/subscribers/email/list/preview`: who the bulk email to the search's matches reaches and
     * skips, and the first one's message (see {@link previewRecipients}).
     */
    previewList: (input: SubscriberEmailPreview): Promise<BulkEmailPreview> =>
      previewRecipients(subscribersRepository.filterSql(emailListFilter(input)), input),

    /** `POST /api/subscribers/email/list/test`: the test to the signed-in user (see {@link sendTest}). */
    sendTestOfList: (input: SubscriberEmailList, user: AuthUser): Promise<EmailQueuedResult> =>
      sendTest(subscribersRepository.filterSql(emailListFilter(input)), input, user),

    sendToRecipients,
    previewRecipients,
    sendTest,

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
