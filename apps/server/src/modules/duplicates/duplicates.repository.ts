import type { DuplicateReason } from '@back-office/contract/duplicates';
import { and, desc, eq, inArray, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { donations, receipts } from '../donations/donations.table.ts';
import { mandates } from '../mandates/mandates.table.ts';
import { sales } from '../sales/sales.table.ts';
import { subscriberHistory, subscribers } from '../subscribers/subscribers.table.ts';
import { duplicatePairs, duplicateScans, type MovedRows, subscriberMerges } from './duplicates.table.ts';

/** Least trigram similarity (pg_trgm, 0 to 1) of two folded "last first" names for them to look alike. */
export const NAME_SIMILARITY = 0.6;
/** A key (email, IBAN, phone) shared by more subscribers than this is a shared mailbox or a placeholder, not a person. */
const MAX_SHARED_KEY = 20;

/** Weight of each reason in a pair's score: score = 1 − Π(1 − weight). */
const WEIGHTS: Record<DuplicateReason, number> = {
  email: 0.6,
  iban: 0.7,
  phone: 0.4,
  'name+postcode': 0.5,
  'name+town': 0.3,
};

/** The last nine digits of a phone number (`+33 6 12…` and `06 12…` alike), in SQL. */
const phoneKey = (column: SQLWrapper) => sql`right(regexp_replace(${column}, '[^0-9]', '', 'g'), 9)`;

/** Likely duplicates, the scan that finds them, and merges (contract `duplicates`). */
export function createDuplicatesRepository() {
  return {
    /**
     * Visible subscribers other than `excludeId` who share the email (lowercased) or IBAN (compact), or
     * whose folded "last first" name (`name`, folded like the search columns) is similar and who live at the same postcode or in the same town. At most 10.
     */
    findLikely: async (
      db: Executor,
      input: { excludeId: number; email: string; iban: string; name: string; postcode: string; town: string },
    ) => {
      const parts = [];
      if (input.email) {
        parts.push(sql`select id, 'email' as reason from ${subscribers}
          where lower(${subscribers.email}) = ${input.email} and ${subscribers.email} <> ''`);
      }
      if (input.iban) {
        parts.push(sql`select id, 'iban' as reason from ${subscribers}
          where ${subscribers.iban} = ${input.iban} and ${subscribers.iban} <> ''`);
      }
      const similarName = sql`similarity(${subscribers.searchLastName} || ' ' || ${subscribers.searchFirstName}, ${input.name}) >= ${NAME_SIMILARITY}`;
      if (input.name.trim() && input.postcode) {
        parts.push(sql`select id, 'name+postcode' as reason from ${subscribers}
          where ${subscribers.searchPostcode} = ${input.postcode} and ${similarName}`);
      }
      if (input.name.trim() && input.town) {
        parts.push(sql`select id, 'name+town' as reason from ${subscribers}
          where ${subscribers.searchTown} = ${input.town} and ${similarName}`);
      }
      if (parts.length === 0) return [];
      return queryRows<{
        id: number;
        title: string;
        firstName: string;
        lastName: string;
        postcode: string;
        town: string;
        email: string;
        reasons: DuplicateReason[];
      }>(
        db,
        sql`select s.id, s.title, s.first_name as "firstName", s.last_name as "lastName", s.postcode, s.town, s.email,
                   jsonb_agg(distinct m.reason) as reasons
            from (${sql.join(parts, sql` union all `)}) m
            join ${subscribers} s on s.id = m.id
            where not s.hidden and s.id <> ${input.excludeId}
            group by s.id
            order by count(distinct m.reason) desc, s.id
            limit 10`,
      );
    },

    /**
     * Replaces the stored pairs with those of the whole register, found by blocking keys: the same email,
     * IBAN or phone (each key shared by 2 to {@link MAX_SHARED_KEY} subscribers), or a similar name
     * ({@link NAME_SIMILARITY}) at the same postcode among subscribers whose folded last names start alike.
     * Returns how many pairs were stored.
     */
    scan: async (db: Executor): Promise<number> => {
      await db.delete(duplicatePairs);
      const weights = sql.raw(
        `(values ${Object.entries(WEIGHTS)
          .map(([reason, weight]) => `('${reason}', ${weight}::float8)`)
          .join(', ')}) as w(reason, weight)`,
      );
      await db.execute(sql`
        insert into duplicate_pairs (a_id, b_id, score, reasons)
        with visible as materialized (
          select id, lower(email) as email, iban, ${phoneKey(subscribers.phone)} as phone,
                 ${phoneKey(subscribers.mobile)} as mobile, search_last_name as last_name,
                 search_first_name as first_name, search_postcode as postcode
          from ${subscribers} where not hidden
        ),
        keys as (
          select id, 'email' as reason, email as key from visible where email <> ''
          union all select id, 'iban', iban from visible where iban <> ''
          union all select id, 'phone', phone from visible where length(phone) = 9
          union all select id, 'phone', mobile from visible where length(mobile) = 9 and mobile <> phone
        ),
        shared as (
          select reason, array_agg(distinct id) as ids from keys
          group by reason, key having count(distinct id) between 2 and ${MAX_SHARED_KEY}
        ),
        pairs as (
          select a.id as a_id, b.id as b_id, s.reason
          from shared s cross join lateral unnest(s.ids) as a(id) cross join lateral unnest(s.ids) as b(id)
          where a.id < b.id
          union all
          select a.id, b.id, 'name+postcode'
          from visible a join visible b
            on b.postcode = a.postcode and left(b.last_name, 3) = left(a.last_name, 3) and b.id > a.id
          where a.postcode <> '' and a.last_name <> ''
            and similarity(a.last_name || ' ' || a.first_name, b.last_name || ' ' || b.first_name) >= ${NAME_SIMILARITY}
        )
        select p.a_id, p.b_id, (1 - exp(sum(ln(1 - w.weight))))::real, jsonb_agg(distinct p.reason)
        from pairs p join ${weights} on w.reason = p.reason
        group by p.a_id, p.b_id`);
      const [counted] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from duplicate_pairs`,
      );
      return counted?.n ?? 0;
    },

    recordScan: (db: Executor, values: { finishedAt: Date; pairs: number }) =>
      db.insert(duplicateScans).values(values),

    lastScan: async (db: Executor) => {
      const [row] = await db.select().from(duplicateScans).orderBy(desc(duplicateScans.id)).limit(1);
      return row;
    },

    /** A page of the stored pairs still made of two visible subscribers, best first, and how many there are. */
    pairsPage: async (db: Executor, { offset, limit }: { offset: number; limit: number }) => {
      const live = sql`from duplicate_pairs p
        join ${subscribers} a on a.id = p.a_id and not a.hidden
        join ${subscribers} b on b.id = p.b_id and not b.hidden`;
      const [rows, [counted]] = await Promise.all([
        queryRows<{
          aId: number;
          bId: number;
          score: number;
          reasons: DuplicateReason[];
          aTitle: string;
          aFirst: string;
          aLast: string;
          bTitle: string;
          bFirst: string;
          bLast: string;
        }>(
          db,
          sql`select p.a_id as "aId", p.b_id as "bId", p.score, p.reasons,
                     a.title as "aTitle", a.first_name as "aFirst", a.last_name as "aLast",
                     b.title as "bTitle", b.first_name as "bFirst", b.last_name as "bLast"
              ${live} order by p.score desc, p.a_id, p.b_id offset ${offset} limit ${limit}`,
        ),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n ${live}`),
      ]);
      return { rows, count: counted?.n ?? 0 };
    },

    /**
     * Moves the donations, sales, receipts, history and SEPA mandates of `fromId` to `toId`; returns the
     * ids moved.
     */
    moveRecords: async (db: Executor, fromId: number, toId: number) => {
      const moved = async (
        table: typeof donations | typeof sales | typeof receipts | typeof subscriberHistory | typeof mandates,
      ) =>
        (
          await db
            .update(table)
            .set({ subscriberId: toId })
            .where(eq(table.subscriberId, fromId))
            .returning({ id: table.id })
        ).map((row) => row.id);
      return {
        donations: await moved(donations),
        sales: await moved(sales),
        receipts: await moved(receipts),
        history: await moved(subscriberHistory),
        mandates: await moved(mandates),
      };
    },

    /** Whether the subscriber unsubscribed through a bulk email's link (and was not put back on the list). */
    isOptedOut: async (db: Executor, subscriberId: number) =>
      (
        await queryRows<{ id: number }>(
          db,
          sql`select o.subscriber_id as id from subscriber_email_opt_outs o
              join subscribers s on s.id = o.subscriber_id
              where o.subscriber_id = ${subscriberId} and not s.on_mail_chimp_list`,
        )
      ).length > 0,

    /** Copies `fromId`'s opt-out to `toId` (merge), or removes `toId`'s (`fromId` null: the merge undone). */
    copyOptOut: async (db: Executor, fromId: number | null, toId: number) => {
      if (fromId === null) {
        await db.execute(sql`delete from subscriber_email_opt_outs where subscriber_id = ${toId}`);
        return;
      }
      await db.execute(sql`insert into subscriber_email_opt_outs (subscriber_id, opted_out_at)
        select ${toId}, opted_out_at from subscriber_email_opt_outs where subscriber_id = ${fromId}
        on conflict (subscriber_id) do nothing`);
    },

    /** Moves the listed donations, sales, receipts, history and mandates back from `fromId` to `toId`. */
    moveBack: async (db: Executor, moved: MovedRows, fromId: number, toId: number) => {
      const back = async (
        table: typeof donations | typeof sales | typeof receipts | typeof subscriberHistory | typeof mandates,
        ids: number[],
      ) => {
        if (ids.length === 0) return;
        await db
          .update(table)
          .set({ subscriberId: toId })
          .where(and(inArray(table.id, ids), eq(table.subscriberId, fromId)));
      };
      await back(donations, moved.donations);
      await back(sales, moved.sales);
      await back(receipts, moved.receipts);
      await back(subscriberHistory, moved.history);
      await back(mandates, moved.mandates ?? []);
    },

    /** Hides a merged subscriber with a pointer to the kept one, or shows it again (`keepId` null). */
    setMergedInto: (db: Executor, id: number, keepId: number | null) =>
      db
        .update(subscribers)
        .set({
          hidden: keepId !== null,
          mergedIntoId: keepId,
          version: sql`${subscribers.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(eq(subscribers.id, id)),

    insertMerge: async (db: Executor, values: typeof subscriberMerges.$inferInsert) => {
      const [row] = await db.insert(subscriberMerges).values(values).returning();
      if (!row) throw new Error('insert into subscriber_merges returned no row');
      return row;
    },

    /** The merge of `mergeId` not undone yet, locked for the rest of the transaction. */
    activeMergeOf: async (db: Executor, mergeId: number) => {
      const [row] = await db
        .select()
        .from(subscriberMerges)
        .where(and(eq(subscriberMerges.mergeId, mergeId), isNull(subscriberMerges.undoneAt)))
        .orderBy(desc(subscriberMerges.id))
        .limit(1)
        .for('update');
      return row;
    },

    markUndone: (db: Executor, id: number, at: Date) =>
      db.update(subscriberMerges).set({ undoneAt: at }).where(eq(subscriberMerges.id, id)).returning(),
  };
}

export type DuplicatesRepository = ReturnType<typeof createDuplicatesRepository>;
