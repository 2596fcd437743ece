import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** An attachment kept in the outbox: the file's bytes in base64. */
export type OutboxAttachment = { filename: string; contentType: string; contentBase64: string };

/**
 * One bulk email (part 2 §2.1 Subscribers, §2.5 Sales list screen): who sent it and its subject; its
 * messages are the outbox rows with its `send_id`, whose states make its progress.
 */
export const mailSends = pgTable('mail_sends', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  /** The staff user who sent it: they and the Administrators may retry its failed messages. */
  userId: integer().notNull(),
  userName: text().notNull(),
  subject: text().notNull(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The durable outbox: a message is written in the same transaction as the action that causes it,
 * then the mail worker sends it (docs/decisions/002).
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** Stable Message-ID so a retried send is recognisable as the same message. */
    messageId: text().notNull().unique(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    textBody: text().notNull(),
    htmlBody: text(),
    attachments: jsonb().$type<OutboxAttachment[]>().notNull().default([]),
    /**
     * The subscriber the message is for (receipt, bulk and brochure emails), null for staff emails
     * (password links). Deleting the subscriber cancels their pending messages, and the worker never
     * claims a message of a deleted subscriber. No foreign key: the outbox is restored and truncated
     * on its own, and a subscriber is only ever hidden, never removed.
     */
    subscriberId: integer(),
    /**
     * `pending` (leased while `locked_until` is ahead: being sent), then `sent`, `failed` (gave up) or
     * `cancelled` (never to be sent; why in `cancel_reason`).
     */
    status: text({ enum: ['pending', 'sent', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true, mode: 'date' }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Why a `cancelled` message will not be sent, e.g. "Subscriber deleted.". */
    cancelReason: text(),
    cancelledAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The bulk email (`mail_sends`) the message belongs to; null for single messages. */
    sendId: integer(),
    /** Extra header fields, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` of a bulk email (RFC 8058). */
    headers: jsonb().$type<Record<string, string>>().notNull().default({}),
    /**
     * Sent as the organisation (From and Reply-To of the settings' sender) rather than as `MAIL_FROM`:
     * every message to a subscriber, and the test of a bulk email.
     */
    fromOrganisation: boolean().notNull().default(false),
  },
  (table) => [
    index('outbox_messages_pending_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('outbox_messages_pending_subscriber_idx')
      .on(table.subscriberId)
      .where(sql`${table.status} = 'pending' and ${table.subscriberId} is not null`),
    index('outbox_messages_send_idx').on(table.sendId).where(sql`${table.sendId} is not null`),
  ],
);

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;
export type MailSendRow = typeof mailSends.$inferSelect;
