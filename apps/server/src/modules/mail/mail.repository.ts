import { randomUUID } from 'node:crypto';
import { and, count, eq, getTableColumns, sql } from 'drizzle-orm';
import { type Executor, preparedPerConnection } from '../../db/client.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import {
  type MailSendRow,
  mailSends,
  type OutboxAttachment,
  type OutboxMessageRow,
  outboxMessages,
} from './mail.table.ts';

/** A message to queue: plain text always, HTML and attachments optional. */
export type NewMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboxAttachment[];
  /** The subscriber it is for, so that deleting them cancels it; left out for staff emails. */
  subscriberId?: number;
  /** The bulk email it belongs to (`createSend`). */
  sendId?: number;
  /** Extra header fields (`List-Unsubscribe`, …). */
  headers?: Record<string, string>;
  /** From the organisation's sender of the settings; by default when it is for a subscriber. */
  fromOrganisation?: boolean;
};

/** Messages of one bulk email by state (`pending` counts as queued). */
export type SendCounts = { total: number; queued: number; sent: number; failed: number; cancelled: number };

/** Why the messages of a deleted subscriber are cancelled (kept on each message). */
export const SUBSCRIBER_DELETED_REASON = 'Subscriber deleted.';

/** Why the queued emails of an anonymised subscriber were cancelled (docs/decisions/019). */
export const SUBSCRIBER_ANONYMISED_REASON = 'Subscriber anonymised.';

/** What an erased message keeps as its subject: the fact, not the words (docs/decisions/019). */
export const ERASED_MESSAGE_SUBJECT = '(removed: personal data anonymised)';

/** A leased message; `interrupted` when an earlier lease ran out without an outcome (its worker stopped). */
export type ClaimedMessage = OutboxMessageRow & { interrupted: boolean };

/** True when the message's subscriber is deleted (hidden); false for staff emails. */
const subscriberHidden = sql`exists (select 1 from ${subscribers} where ${subscribers.id} = ${outboxMessages.subscriberId} and ${subscribers.hidden})`;

/** A message whose time has come and that no live worker holds. */
const isDue = sql`${outboxMessages.status} = 'pending'
  and ${outboxMessages.nextAttemptAt} <= now()
  and (${outboxMessages.lockedUntil} is null or ${outboxMessages.lockedUntil} < now())`;

/** Messages one insert queues: 10 parameters each, far below a statement's 65,535. */
const ENQUEUE_BATCH = 500;

/** The outbox row of a new message, pending, with a message id of its own. */
function outboxValues(mail: NewMail): typeof outboxMessages.$inferInsert {
  return {
    messageId: `<${randomUUID()}@back-office>`,
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html ?? null,
    attachments: mail.attachments ?? [],
    subscriberId: mail.subscriberId ?? null,
    sendId: mail.sendId ?? null,
    headers: mail.headers ?? {},
    fromOrganisation: mail.fromOrganisation ?? mail.subscriberId !== undefined,
  };
}

/** One new message, its values named as {@link outboxValues} gives them. */
const enqueueStatement = preparedPerConnection((db) =>
  db
    .insert(outboxMessages)
    .values({
      messageId: sql.placeholder('messageId'),
      toAddress: sql.placeholder('toAddress'),
      subject: sql.placeholder('subject'),
      textBody: sql.placeholder('textBody'),
      htmlBody: sql.placeholder('htmlBody'),
      attachments: sql.placeholder('attachments'),
      subscriberId: sql.placeholder('subscriberId'),
      sendId: sql.placeholder('sendId'),
      headers: sql.placeholder('headers'),
      fromOrganisation: sql.placeholder('fromOrganisation'),
    })
    .returning({ id: outboxMessages.id })
    .prepare('outbox_enqueue'),
);

/** All SQL of the outbox (docs/decisions/002). */
export function createMailRepository() {
  return {
    /**
     * Queues a message; call it with the transaction of the action that causes the message. Resolves
     * with its id only: the whole row would bring its attachments back (a receipt's PDF, 37 KB).
     */
    enqueue: async (db: Executor, mail: NewMail): Promise<{ id: number }> => {
      const [row] = await enqueueStatement(db).execute(outboxValues(mail));
      if (!row) throw new Error('insert into outbox_messages returned no row');
      return row;
    },

    /**
     * Queues many messages, {@link ENQUEUE_BATCH} per statement (a collection's 10,000
     * pre-notifications were 10,000 inserts, most of its export's time); in the caller's transaction.
     */
    enqueueMany: async (db: Executor, mails: NewMail[]): Promise<void> => {
      for (let start = 0; start < mails.length; start += ENQUEUE_BATCH) {
        await db.insert(outboxMessages).values(mails.slice(start, start + ENQUEUE_BATCH).map(outboxValues));
      }
    },

    /**
     * Leases up to `limit` due messages for `lockSeconds` and counts the attempt, in one statement
     * that commits before the caller sends anything. A leased message stays `pending` with
     * `locked_until` in the future: that is the "being sent" state. `FOR UPDATE SKIP LOCKED` makes
     * two server instances lease disjoint sets, so no message is sent twice by two live workers.
     * A lease that runs out without `markSent` or `markFailedAttempt` means its worker stopped
     * before recording an outcome: the message is due again, with `interrupted` true on the row
     * returned (it may or may not have gone out already).
     * A due message whose subscriber is deleted (hidden) is never leased but `cancelled` in the same
     * statement: the deletion cancels the others, this catches one it left to the worker holding it
     * (its lease ran out). Resolves with the leased rows, by id (fewer than `limit` when some were
     * cancelled).
     */
    claimDue: async (
      db: Executor,
      { limit, lockSeconds }: { limit: number; lockSeconds: number },
    ): Promise<ClaimedMessage[]> => {
      const due = db.$with('due').as(
        db
          .select({
            dueId: sql<number>`${outboxMessages.id}`.as('due_id'),
            interrupted: sql<boolean>`${outboxMessages.lockedUntil} is not null`.as('interrupted'),
            deleted: sql<boolean>`${subscriberHidden}`.as('subscriber_deleted'),
          })
          .from(outboxMessages)
          .where(isDue)
          // The oldest due first, along the pending index: `order by id` would walk past every
          // message already sent, on each claim (quadratic over a bulk email).
          .orderBy(outboxMessages.nextAttemptAt)
          .limit(limit)
          .for('update', { skipLocked: true }),
      );
      // A due message of a deleted subscriber is cancelled here, in the same statement, not leased.
      const deleted = sql`"subscriber_deleted"`;
      const rows = await db
        .with(due)
        .update(outboxMessages)
        .set({
          status: sql`case when ${deleted} then 'cancelled' else 'pending' end`,
          cancelReason: sql`case when ${deleted} then ${SUBSCRIBER_DELETED_REASON} end`,
          cancelledAt: sql`case when ${deleted} then now() end`,
          lockedUntil: sql`case when ${deleted} then null else now() + make_interval(secs => ${lockSeconds}) end`,
          attempts: sql`case when ${deleted} then ${outboxMessages.attempts} else ${outboxMessages.attempts} + 1 end`,
        })
        .from(due)
        .where(eq(outboxMessages.id, due.dueId))
        .returning({
          ...getTableColumns(outboxMessages),
          interrupted: due.interrupted,
          deleted: due.deleted,
        });
      return rows
        .filter((row) => !row.deleted)
        .map(({ deleted: _deleted, ...row }) => row)
        .sort((a, b) => a.id - b.id);
    },

    /** Records the SMTP server's acceptance: `sent`, lease and last error cleared. */
    markSent: async (db: Executor, { id }: { id: number }): Promise<void> => {
      await db
        .update(outboxMessages)
        .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null })
        .where(eq(outboxMessages.id, id));
    },

    /**
     * Schedules another try after `delaySeconds`, or gives up (`failed`) when `giveUp`; a message whose
     * subscriber was deleted while it was being sent is `cancelled` instead of tried again.
     */
    markFailedAttempt: (
      db: Executor,
      {
        id,
        error,
        delaySeconds,
        giveUp,
      }: { id: number; error: string; delaySeconds: number; giveUp: boolean },
    ) =>
      db
        .update(outboxMessages)
        .set({
          status: giveUp
            ? 'failed'
            : sql<'pending' | 'cancelled'>`case when ${subscriberHidden} then 'cancelled' else 'pending' end`,
          cancelReason: sql`case when ${subscriberHidden} then ${SUBSCRIBER_DELETED_REASON} end`,
          cancelledAt: sql`case when ${subscriberHidden} then now() end`,
          lastError: error.slice(0, 2000),
          lockedUntil: null,
          nextAttemptAt: sql`now() + make_interval(secs => ${delaySeconds})`,
        })
        .where(eq(outboxMessages.id, id)),

    /**
     * Cancels the pending messages of subscriber `subscriberId` (call it in the transaction that
     * deletes them), with `reason`, except those being sent right now (leased, lease not run out): the
     * worker holding one finishes it, and will not retry it. A worker claiming at the same moment
     * either got the row first (then it is being sent and left alone here: this update waits for the
     * claim's row lock and sees the lease) or skips it (`SKIP LOCKED`) while this transaction holds it.
     * Resolves with how many were cancelled.
     */
    cancelPendingForSubscriber: async (
      db: Executor,
      { subscriberId, reason }: { subscriberId: number; reason: string },
    ): Promise<number> => {
      const rows = await db
        .update(outboxMessages)
        .set({ status: 'cancelled', cancelReason: reason, cancelledAt: sql`now()`, lockedUntil: null })
        .where(
          sql`${outboxMessages.subscriberId} = ${subscriberId}
              and ${outboxMessages.status} = 'pending'
              and (${outboxMessages.lockedUntil} is null or ${outboxMessages.lockedUntil} < now())`,
        )
        .returning({ id: outboxMessages.id });
      return rows.length;
    },

    /**
     * Erases the kept copies of the messages to a subscriber that are over (sent, failed or
     * cancelled): address, subject, bodies, attachments and headers; their dates and states stay
     * (GDPR art. 17, docs/decisions/019). A message being sent at this moment is left alone.
     * Resolves with how many were erased.
     */
    eraseForSubscriber: async (db: Executor, subscriberId: number): Promise<number> => {
      const rows = await db
        .update(outboxMessages)
        .set({
          toAddress: '',
          subject: ERASED_MESSAGE_SUBJECT,
          textBody: '',
          htmlBody: null,
          attachments: [],
          headers: {},
        })
        .where(
          sql`${outboxMessages.subscriberId} = ${subscriberId} and ${outboxMessages.status} <> 'pending'`,
        )
        .returning({ id: outboxMessages.id });
      return rows.length;
    },

    /** How many messages are due now (pending, their time come, not leased). */
    countDue: async (db: Executor): Promise<number> => {
      const [row] = await db.select({ n: count() }).from(outboxMessages).where(isDue);
      return Number(row?.n ?? 0);
    },

    /** Whether any message is due now (an index probe, for the idle outbox job). */
    hasDue: async (db: Executor): Promise<boolean> => {
      const rows = await db.select({ id: outboxMessages.id }).from(outboxMessages).where(isDue).limit(1);
      return rows.length > 0;
    },

    /** Records a bulk email sent by `userId`; its messages are queued with the returned id. */
    createSend: async (
      db: Executor,
      send: { userId: number; userName: string; subject: string },
    ): Promise<MailSendRow> => {
      const [row] = await db.insert(mailSends).values(send).returning();
      if (!row) throw new Error('insert into mail_sends returned no row');
      return row;
    },

    /** The bulk email `id`, or undefined. */
    findSend: async (db: Executor, id: number): Promise<MailSendRow | undefined> => {
      const [row] = await db.select().from(mailSends).where(eq(mailSends.id, id));
      return row;
    },

    /** How many messages of bulk email `sendId` are in each state. */
    countSendMessages: async (db: Executor, sendId: number): Promise<SendCounts> => {
      const rows = await db
        .select({ status: outboxMessages.status, n: count() })
        .from(outboxMessages)
        .where(eq(outboxMessages.sendId, sendId))
        .groupBy(outboxMessages.status);
      const of = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
      const counts = {
        queued: of('pending'),
        sent: of('sent'),
        failed: of('failed'),
        cancelled: of('cancelled'),
      };
      return { total: counts.queued + counts.sent + counts.failed + counts.cancelled, ...counts };
    },

    /**
     * Queues the `failed` messages of bulk email `sendId` again, due now with their attempts reset
     * (their last error kept until the next outcome). Resolves with how many.
     */
    retryFailedOfSend: async (db: Executor, sendId: number): Promise<number> => {
      const rows = await db
        .update(outboxMessages)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null })
        .where(and(eq(outboxMessages.sendId, sendId), eq(outboxMessages.status, 'failed')))
        .returning({ id: outboxMessages.id });
      return rows.length;
    },

    listMessages: (db: Executor) => db.select().from(outboxMessages).orderBy(outboxMessages.id),
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
