import type {
  CollectionFileVersion,
  CollectionLineStatus,
  CollectionSequenceType,
  CollectionSummary,
} from '@back-office/contract/collections';
import type { MandateType } from '@back-office/contract/mandates';
import type { PlanFrequency } from '@back-office/contract/plans';
import { and, eq, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { type CollectionRow, collectionLines, collections } from './collections.table.ts';

/** An installment due that no collection holds yet: the plan, its mandate and whether the mandate was used. */
export type DueInstallment = {
  planId: number;
  mandateId: number;
  subscriberId: number;
  amount: string;
  mandateType: MandateType;
  /** True when the mandate was collected before (`last_collected_on`) or is in an earlier collection. */
  mandateUsed: boolean;
};

/** A new line of a collection. */
export type NewCollectionLine = {
  collectionId: number;
  planId: number;
  mandateId: number;
  subscriberId: number;
  dueDate: string;
  amount: string;
  sequenceType: CollectionSequenceType;
  endToEndId: string;
};

/** A line with what the screens and the pain.008 file need of its subscriber and mandate. */
export type CollectionLineDetail = {
  id: number;
  planId: number;
  mandateId: number;
  subscriberId: number;
  amount: string;
  frequency: PlanFrequency;
  sequenceType: CollectionSequenceType;
  status: CollectionLineStatus;
  endToEndId: string;
  reasonCode: string | null;
  donationId: number | null;
  title: string;
  firstName: string;
  lastName: string;
  email: string;
  street: string;
  postcode: string;
  town: string;
  countryCode: string | null;
  rum: string;
  iban: string;
  bic: string | null;
  signedOn: string;
  originalRum: string | null;
  originalIban: string | null;
  amendedOn: string | null;
  /** False once the mandate is revoked or expired, the plan paused or ended, or the subscriber deleted. */
  collectable: boolean;
};

/** Lines written by one insert statement. */
const INSERT_BATCH = 2000;

/** A line a return file may name: what applying the return needs of it, its collection and debtor. */
export type ReturnableLine = {
  id: number;
  collectionId: number;
  collectionStatus: CollectionRow['status'];
  endToEndId: string;
  status: CollectionLineStatus;
  reasonCode: string | null;
  amount: string;
  dueDate: string;
  sequenceType: CollectionSequenceType;
  donationId: number | null;
  subscriberId: number;
  mandateId: number;
  rum: string;
  title: string;
  firstName: string;
  lastName: string;
};

/** `count` lines not removed and their `total` euros (`numeric` text), per collection. */
const totals = sql`
  select collection_id, count(*)::int as count, coalesce(sum(amount), 0)::text as total
  from collection_lines where status <> 'removed' group by collection_id`;

type SummaryRow = {
  id: number;
  dueDate: string;
  status: CollectionSummary['status'];
  count: number;
  total: string;
};

const toSummary = (row: SummaryRow): CollectionSummary => ({
  id: row.id,
  dueDate: row.dueDate,
  status: row.status,
  count: row.count,
  total: Number(row.total),
});

/** All SQL of the collections (contract `collections`). Every function runs on the executor it is given. */
export function createCollectionsRepository() {
  return {
    /**
     * Creates the draft of `dueDate` unless one exists (the partial unique index `on conflict do
     * nothing`: of two concurrent builds, the second waits for the first and then adds nothing);
     * whether it created it.
     */
    insertDraft: async (db: Executor, dueDate: string, createdBy: string): Promise<boolean> => {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`insert into collections (due_date, created_by) values (${dueDate}::date, ${createdBy})
          on conflict (due_date) where status = 'draft' do nothing
          returning id`,
      );
      return rows.length > 0;
    },

    /** The draft of `dueDate`, locked for the rest of the transaction. */
    lockDraft: async (db: Executor, dueDate: string): Promise<CollectionRow | undefined> => {
      const [row] = await db
        .select()
        .from(collections)
        .where(and(eq(collections.dueDate, dueDate), eq(collections.status, 'draft')))
        .for('update');
      return row;
    },

    /** Collection `id`, locked for the rest of the transaction when `lock` is set. */
    findById: async (db: Executor, id: number, { lock = false } = {}): Promise<CollectionRow | undefined> => {
      const query = db.select().from(collections).where(eq(collections.id, id));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    /**
     * The installments due on `dueDate` (`YYYY-MM-DD`) that collection `collectionId` may take: plans
     * active that day (started, not ended) whose day of the month is the due date's and whose month
     * is a whole number of periods (1, 3, 6, 12 months) after the month of `start_on`, under an active
     * mandate (a one-off one never collected), of a subscriber not deleted, that no collection holds
     * (a line not removed) and that this collection never held (a line removed here stays removed).
     */
    dueInstallments: (db: Executor, dueDate: string, collectionId: number): Promise<DueInstallment[]> =>
      queryRows<DueInstallment>(
        db,
        sql`
          with due as (select ${dueDate}::date as day)
          select p.id as "planId", p.mandate_id as "mandateId", p.subscriber_id as "subscriberId",
            p.amount::text as amount, m.type as "mandateType",
            (m.last_collected_on is not null or exists (
              select 1 from collection_lines used
              where used.mandate_id = m.id and used.due_date < due.day
                and used.status in ('pending', 'collected')
            )) as "mandateUsed"
          from plans p
          cross join due
          join mandates m on m.id = p.mandate_id
          join subscribers s on s.id = p.subscriber_id
          where p.status = 'active'
            and p.start_on <= due.day
            and (p.end_on is null or p.end_on >= due.day)
            and p.day_of_month = extract(day from due.day)::int
            and ((extract(year from due.day)::int * 12 + extract(month from due.day)::int)
              - (extract(year from p.start_on)::int * 12 + extract(month from p.start_on)::int))
              % (case p.frequency when 'monthly' then 1 when 'quarterly' then 3 when 'halfYearly' then 6 else 12 end) = 0
            and m.status = 'active'
            and (m.type <> 'oneOff' or m.last_collected_on is null)
            and not s.hidden
            and not exists (
              select 1 from collection_lines held
              where held.plan_id = p.id and held.due_date = due.day
                and (held.status <> 'removed' or held.collection_id = ${collectionId})
            )
          order by p.id`,
      ),

    /**
     * Adds lines, {@link INSERT_BATCH} per statement (a statement takes at most 65,535 parameters, 8 a
     * line); an installment another transaction took meanwhile is skipped (the partial unique index).
     */
    insertLines: async (db: Executor, lines: NewCollectionLine[]): Promise<void> => {
      for (let start = 0; start < lines.length; start += INSERT_BATCH) {
        await db
          .insert(collectionLines)
          .values(lines.slice(start, start + INSERT_BATCH))
          .onConflictDoNothing();
      }
    },

    /** Collection `id` with its `count` lines not removed and their `total` euros. */
    summary: async (db: Executor, id: number): Promise<CollectionSummary | undefined> => {
      const [row] = await queryRows<SummaryRow>(
        db,
        sql`select c.id, to_char(c.due_date, 'YYYY-MM-DD') as "dueDate", c.status,
            coalesce(t.count, 0)::int as count, coalesce(t.total, '0') as total
          from collections c left join (${totals}) t on t.collection_id = c.id
          where c.id = ${id}`,
      );
      return row ? toSummary(row) : undefined;
    },

    /** Every collection, newest due date first (then newest first). */
    list: async (db: Executor): Promise<CollectionSummary[]> =>
      (
        await queryRows<SummaryRow>(
          db,
          sql`select c.id, to_char(c.due_date, 'YYYY-MM-DD') as "dueDate", c.status,
              coalesce(t.count, 0)::int as count, coalesce(t.total, '0') as total
            from collections c left join (${totals}) t on t.collection_id = c.id
            order by c.due_date desc, c.id desc`,
        )
      ).map(toSummary),

    /** The lines of collection `id` (removed ones too, or only `pending` ones), in the order they were added. */
    lines: (db: Executor, id: number, { pendingOnly = false } = {}): Promise<CollectionLineDetail[]> =>
      queryRows<CollectionLineDetail>(
        db,
        sql`select l.id, l.plan_id as "planId", l.mandate_id as "mandateId", l.subscriber_id as "subscriberId",
            l.amount::text as amount, p.frequency, l.sequence_type as "sequenceType", l.status, l.end_to_end_id as "endToEndId",
            l.reason_code as "reasonCode", l.donation_id as "donationId",
            s.title, s.first_name as "firstName", s.last_name as "lastName", s.email,
            trim(s.address1) as street, s.postcode, s.town, co.iso_code as "countryCode",
            m.rum, m.iban, m.bic, to_char(m.signed_on, 'YYYY-MM-DD') as "signedOn",
            m.original_rum as "originalRum", m.original_iban as "originalIban",
            to_char(m.amended_on, 'YYYY-MM-DD') as "amendedOn",
            (m.status = 'active' and p.status = 'active' and not s.hidden) as collectable
          from collection_lines l
          join subscribers s on s.id = l.subscriber_id
          left join countries co on co.id = s.country_id
          join mandates m on m.id = l.mandate_id
          join plans p on p.id = l.plan_id
          where l.collection_id = ${id} ${pendingOnly ? sql`and l.status = 'pending'` : sql``}
          order by l.id`,
      ),

    /** Marks line `lineId` of collection `collectionId` removed; false when the collection has no such line. */
    removeLine: async (db: Executor, collectionId: number, lineId: number): Promise<boolean> => {
      const rows = await db
        .update(collectionLines)
        .set({ status: 'removed' })
        .where(and(eq(collectionLines.id, lineId), eq(collectionLines.collectionId, collectionId)))
        .returning({ id: collectionLines.id });
      return rows.length > 0;
    },

    /** Sets the sequence type a line was written with (a change of bank makes it FRST). */
    setSequenceType: async (db: Executor, lineId: number, sequenceType: CollectionSequenceType) => {
      await db.update(collectionLines).set({ sequenceType }).where(eq(collectionLines.id, lineId));
    },

    /** Records the file of collection `id` and marks it exported. */
    markExported: async (
      db: Executor,
      id: number,
      values: {
        fileVersion: CollectionFileVersion;
        fileXml: string;
        messageId: string;
        at: Date;
        by: string;
      },
    ): Promise<void> => {
      await db
        .update(collections)
        .set({
          status: 'exported',
          fileVersion: values.fileVersion,
          fileXml: values.fileXml,
          messageId: values.messageId,
          exportedAt: values.at,
          exportedBy: values.by,
        })
        .where(eq(collections.id, id));
    },

    /** Marks line `lineId` collected by donation `donationId`. */
    markLineCollected: async (db: Executor, lineId: number, donationId: number): Promise<void> => {
      await db
        .update(collectionLines)
        .set({ status: 'collected', donationId })
        .where(eq(collectionLines.id, lineId));
    },

    /**
     * The lines whose EndToEndId is in `endToEndIds`, with their collection's status, the debtor's
     * name, the mandate and the day it was last collected; locked for the rest of the transaction when
     * `lock` is set (the caller locks their collections first: collection, then lines).
     */
    linesByEndToEndId: (
      db: Executor,
      endToEndIds: string[],
      { lock = false } = {},
    ): Promise<ReturnableLine[]> =>
      endToEndIds.length === 0
        ? Promise.resolve([])
        : queryRows<ReturnableLine>(
            db,
            sql`select l.id, l.collection_id as "collectionId", c.status as "collectionStatus",
                l.end_to_end_id as "endToEndId", l.status, l.reason_code as "reasonCode",
                l.amount::text as amount, to_char(l.due_date, 'YYYY-MM-DD') as "dueDate",
                l.sequence_type as "sequenceType", l.donation_id as "donationId",
                l.subscriber_id as "subscriberId", l.mandate_id as "mandateId", m.rum,
                s.title, s.first_name as "firstName", s.last_name as "lastName"
              from collection_lines l
              join collections c on c.id = l.collection_id
              join mandates m on m.id = l.mandate_id
              join subscribers s on s.id = l.subscriber_id
              where l.end_to_end_id in (${sql.join(
                endToEndIds.map((id) => sql`${id}`),
                sql`, `,
              )})
              order by l.id
              ${lock ? sql`for update of l` : sql``}`,
          ),

    /** Locks collections `ids` for the rest of the transaction, in id order (no deadlock between two). */
    lockMany: async (db: Executor, ids: number[]): Promise<void> => {
      if (ids.length === 0) return;
      await queryRows(
        db,
        sql`select id from collections where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) order by id for update`,
      );
    },

    /** Marks line `lineId` returned or rejected by the bank with ISO reason `reasonCode`. */
    markLineReturned: async (
      db: Executor,
      lineId: number,
      values: { status: 'returned' | 'rejected'; reasonCode: string; at: Date },
    ): Promise<void> => {
      await db
        .update(collectionLines)
        .set({ status: values.status, reasonCode: values.reasonCode, returnedAt: values.at })
        .where(eq(collectionLines.id, lineId));
    },

    /** How many lines of mandate `mandateId` the bank returned or rejected. */
    returnCount: async (db: Executor, mandateId: number): Promise<number> => {
      const [row] = await queryRows<{ count: number }>(
        db,
        sql`select count(*)::int as count from collection_lines
          where mandate_id = ${mandateId} and status in ('returned', 'rejected')`,
      );
      return row?.count ?? 0;
    },

    /** The latest due date of a collected line of mandate `mandateId` (`YYYY-MM-DD`), or null. */
    lastCollectedDay: async (db: Executor, mandateId: number): Promise<string | null> => {
      const [row] = await queryRows<{ day: string | null }>(
        db,
        sql`select to_char(max(due_date), 'YYYY-MM-DD') as day from collection_lines
          where mandate_id = ${mandateId} and status = 'collected'`,
      );
      return row?.day ?? null;
    },

    /** Marks collection `id` settled. */
    markSettled: async (db: Executor, id: number, at: Date, by: string): Promise<void> => {
      await db
        .update(collections)
        .set({ status: 'settled', settledAt: at, settledBy: by })
        .where(eq(collections.id, id));
    },

    /** The euro (the currency whose ISO code is `EUR`): id and symbol; undefined when the list lacks it. */
    euro: async (db: Executor): Promise<{ id: number; symbol: string } | undefined> => {
      const [row] = await db
        .select({ id: currencies.id, symbol: currencies.symbol })
        .from(currencies)
        .where(eq(currencies.isoCode, 'EUR'));
      return row;
    },
  };
}

export type CollectionsRepository = ReturnType<typeof createCollectionsRepository>;
