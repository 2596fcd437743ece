import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** An attachment kept in the outbox: the file's bytes in base64. */
export type OutboxAttachment = { filename: string; contentType: string; contentBase64: string };

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
  },
  (table) => [
    index('outbox_messages_pending_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('outbox_messages_pending_subscriber_idx')
      .on(table.subscriberId)
      .where(sql`${table.status} = 'pending' and ${table.subscriberId} is not null`),
  ],
);

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;
