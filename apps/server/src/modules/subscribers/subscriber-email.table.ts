import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { subscribers } from './subscribers.table.ts';

/**
 * Subscribers who unsubscribed through the link of a bulk email (docs/decisions/006). They get no bulk email
 * while their "on mailing list" (`onMailChimpList`) stays false; staff ticking it again, at their
 * request, lets them receive it again. The returned-brochure email is not a bulk email.
 */
export const subscriberEmailOptOuts = pgTable('subscriber_email_opt_outs', {
  subscriberId: integer()
    .primaryKey()
    .references(() => subscribers.id, { onDelete: 'cascade' }),
  optedOutAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
