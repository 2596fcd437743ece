import { and, asc, eq, gt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { subscriberEmailOptOuts } from './subscriber-email.table.ts';
import { subscriberHistory, subscribers } from './subscribers.table.ts';

/** SQL of the emails to subscribers (part 2 §7 brochure email and email list; docs/decisions/006). */
export function createSubscriberEmailRepository() {
  return {
    /**
     * Up to `limit` recipients of a bulk email with an id above `afterId`, by id: subscribers matching
     * `where` (a condition on `subscribers`, e.g. the search filter, which never matches deleted ones)
     * who have an email address and have not unsubscribed (an opt-out counts while "on mailing list"
     * is still false).
     */
    recipientsBatch: (
      db: Executor,
      { where, afterId, limit }: { where: SQL | undefined; afterId: number; limit: number },
    ) =>
      db
        .select({
          id: subscribers.id,
          title: subscribers.title,
          firstName: subscribers.firstName,
          lastName: subscribers.lastName,
          email: subscribers.email,
        })
        .from(subscribers)
        .where(
          and(
            where,
            eq(subscribers.hidden, false),
            ne(subscribers.email, ''),
            gt(subscribers.id, afterId),
            or(
              eq(subscribers.onMailChimpList, true),
              sql`not exists (select 1 from ${subscriberEmailOptOuts} where ${subscriberEmailOptOuts.subscriberId} = ${subscribers.id})`,
            ),
          ),
        )
        .orderBy(asc(subscribers.id))
        .limit(limit),

    /**
     * Who of the subscribers matching `where` a bulk email reaches (as {@link recipientsBatch}) and why
     * the others are skipped: deleted, no email address, or unsubscribed through the link; one scan.
     */
    countAudience: async (db: Executor, where: SQL | undefined) => {
      const optedOut = sql`(not ${subscribers.onMailChimpList} and exists (select 1 from ${subscriberEmailOptOuts} where ${subscriberEmailOptOuts.subscriberId} = ${subscribers.id}))`;
      const [row] = await db
        .select({
          recipients: sql<number>`count(*) filter (where not ${subscribers.hidden} and ${subscribers.email} <> '' and not ${optedOut})`,
          noAddress: sql<number>`count(*) filter (where not ${subscribers.hidden} and ${subscribers.email} = '')`,
          unsubscribed: sql<number>`count(*) filter (where not ${subscribers.hidden} and ${subscribers.email} <> '' and ${optedOut})`,
          deleted: sql<number>`count(*) filter (where ${subscribers.hidden})`,
        })
        .from(subscribers)
        .where(where);
      return {
        recipients: Number(row?.recipients ?? 0),
        skipped: {
          noAddress: Number(row?.noAddress ?? 0),
          unsubscribed: Number(row?.unsubscribed ?? 0),
          deleted: Number(row?.deleted ?? 0),
        },
      };
    },

    /** Writes many history lines in one statement (one per recipient of a bulk email). */
    addHistoryLines: async (
      db: Executor,
      entries: ReadonlyArray<{ subscriberId: number; userName: string; description: string }>,
    ) => {
      if (entries.length > 0) await db.insert(subscriberHistory).values([...entries]);
    },

    /** True when the subscriber has unsubscribed through the link before. */
    hasOptedOut: async (db: Executor, subscriberId: number) => {
      const rows = await db
        .select({ id: subscriberEmailOptOuts.subscriberId })
        .from(subscriberEmailOptOuts)
        .where(eq(subscriberEmailOptOuts.subscriberId, subscriberId));
      return rows.length > 0;
    },

    /** Records (or renews) the subscriber's opt-out from bulk emails. */
    recordOptOut: (db: Executor, subscriberId: number) =>
      db
        .insert(subscriberEmailOptOuts)
        .values({ subscriberId })
        .onConflictDoUpdate({ target: subscriberEmailOptOuts.subscriberId, set: { optedOutAt: sql`now()` } }),
  };
}

export type SubscriberEmailRepository = ReturnType<typeof createSubscriberEmailRepository>;
