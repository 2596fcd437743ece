import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { type OutboxAttachment, type OutboxMessageRow, outboxMessages } from './mail.table.ts';

/** A message to queue: plain text always, HTML and attachments optional. */
export type NewMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboxAttachment[];
};

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
     * Claims up to `limit` due messages for `lockSeconds`. `FOR UPDATE SKIP LOCKED` makes two
     * server instances claim disjoint sets, so no message is sent twice.
     */
    claimDue: async (db: Executor, { limit, lockSeconds }: { limit: number; lockSeconds: number }) => {
      const claimed = await queryRows<{ id: number | string }>(
        db,
        sql`
        update outbox_messages
           set locked_until = now() + make_interval(secs => ${lockSeconds}),
               attempts = attempts + 1
         where id in (
           select id from outbox_messages
            where status = 'pending'
              and next_attempt_at <= now()
              and (locked_until is null or locked_until < now())
            order by id
            limit ${limit}
            for update skip locked)
        returning id`,
      );
      const ids = claimed.map((row) => Number(row.id));
      if (ids.length === 0) return [];
      return db
        .select()
        .from(outboxMessages)
        .where(sql`${outboxMessages.id} in (${sql.join(ids, sql`, `)})`)
        .orderBy(outboxMessages.id);
    },

    markSent: (db: Executor, { id }: { id: number }) =>
      db
        .update(outboxMessages)
        .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null })
        .where(eq(outboxMessages.id, id)),

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
