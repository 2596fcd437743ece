import { randomUUID } from 'node:crypto';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type OutboxAttachment, type OutboxMessageRow, outboxMessages } from './mail.table.ts';

/** A message to queue: plain text always, HTML and attachments optional. */
export type NewMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboxAttachment[];
};

/** A leased message; `interrupted` when an earlier lease ran out without an outcome (its worker stopped). */
export type ClaimedMessage = OutboxMessageRow & { interrupted: boolean };

/** All SQL of the outbox (issue 2 §6). */
export function createMailRepository() {
  return {
    /** Queues a message; call it with the transaction of the action that causes the message. */
    enqueue: async (db: Executor, mail: NewMail): Promise<OutboxMessageRow> => {
      const [row] = await db
        .insert(outboxMessages)
        .values({
          messageId: `<${randomUUID()}@back-office>`,
          toAddress: mail.to,
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html ?? null,
          attachments: mail.attachments ?? [],
        })
        .returning();
      if (!row) throw new Error('insert into outbox_messages returned no row');
      return row;
    },

    /**
     * Leases up to `limit` due messages for `lockSeconds` and counts the attempt, in one statement
     * that commits before the caller sends anything. A leased message stays `pending` with
     * `locked_until` in the future: that is the "being sent" state. `FOR UPDATE SKIP LOCKED` makes
     * two server instances lease disjoint sets, so no message is sent twice by two live workers.
     * A lease that runs out without `markSent` or `markFailedAttempt` means its worker stopped
     * before recording an outcome: the message is due again, with `interrupted` true on the row
     * returned (it may or may not have gone out already).
     * Resolves with the leased rows, by id.
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
          })
          .from(outboxMessages)
          .where(
            sql`${outboxMessages.status} = 'pending'
                and ${outboxMessages.nextAttemptAt} <= now()
                and (${outboxMessages.lockedUntil} is null or ${outboxMessages.lockedUntil} < now())`,
          )
          // The oldest due first, along the pending index: `order by id` would walk past every
          // message already sent, on each claim (quadratic over a bulk email).
          .orderBy(outboxMessages.nextAttemptAt)
          .limit(limit)
          .for('update', { skipLocked: true }),
      );
      const rows = await db
        .with(due)
        .update(outboxMessages)
        .set({
          lockedUntil: sql`now() + make_interval(secs => ${lockSeconds})`,
          attempts: sql`${outboxMessages.attempts} + 1`,
        })
        .from(due)
        .where(eq(outboxMessages.id, due.dueId))
        .returning({ ...getTableColumns(outboxMessages), interrupted: due.interrupted });
      return rows.sort((a, b) => a.id - b.id);
    },

    /** Records the SMTP server's acceptance: `sent`, lease and last error cleared. */
    markSent: async (db: Executor, { id }: { id: number }): Promise<void> => {
      await db
        .update(outboxMessages)
        .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null })
        .where(eq(outboxMessages.id, id));
    },

    /** Schedules another try after `delaySeconds`, or gives up (`failed`) when `giveUp`. */
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
          status: giveUp ? 'failed' : 'pending',
          lastError: error.slice(0, 2000),
          lockedUntil: null,
          nextAttemptAt: sql`now() + make_interval(secs => ${delaySeconds})`,
        })
        .where(eq(outboxMessages.id, id)),

    listMessages: (db: Executor) => db.select().from(outboxMessages).orderBy(outboxMessages.id),
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
