import type { Mandate } from '@back-office/contract/mandates';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { type MandateRow, mandates } from './mandates.table.ts';

/** The columns of a new mandate. */
export type NewMandate = Pick<MandateRow, 'subscriberId' | 'rum' | 'iban' | 'bic' | 'signedOn' | 'type'>;

/** The columns a change may set. */
export type MandateColumns = Partial<Omit<MandateRow, 'id' | 'subscriberId' | 'createdAt'>>;

/** A mandate the expiry ended: its id, subscriber, reference and the day of its last use. */
export type ExpiredMandate = { id: number; subscriberId: number; rum: string; lastUsedOn: string };

/** The wire shape of a stored mandate: optional fields left out rather than null. */
export function toMandate(row: MandateRow): Mandate {
  const amended = row.amendedOn
    ? {
        amendment: {
          ...(row.originalRum !== null ? { originalRum: row.originalRum } : {}),
          ...(row.originalIban !== null ? { originalIban: row.originalIban } : {}),
          amendedOn: row.amendedOn,
        },
      }
    : {};
  return {
    id: row.id,
    subscriberId: row.subscriberId,
    rum: row.rum,
    iban: row.iban,
    ...(row.bic !== null ? { bic: row.bic } : {}),
    signedOn: row.signedOn,
    type: row.type,
    status: row.status,
    ...(row.lastCollectedOn !== null ? { lastCollectedOn: row.lastCollectedOn } : {}),
    ...(row.revokedOn !== null ? { revokedOn: row.revokedOn } : {}),
    ...(row.revokedReason !== null ? { revokedReason: row.revokedReason } : {}),
    ...(row.suspendedOn !== null ? { suspendedOn: row.suspendedOn } : {}),
    ...(row.suspendedReason !== null ? { suspendedReason: row.suspendedReason } : {}),
    ...amended,
  };
}

/** The day a mandate was last used: its last collection, else its signature. */
const lastUse = sql`coalesce(${mandates.lastCollectedOn}, ${mandates.signedOn})`;

/** The active mandates unused since `cutoff` (`YYYY-MM-DD`, included). */
const unusedSince = (cutoff: string) =>
  and(eq(mandates.status, 'active'), sql`${lastUse} <= ${cutoff}::date`);

/** All SQL of the mandates (contract `mandates`). Every function runs on the executor it is given. */
export function createMandatesRepository() {
  return {
    /** A subscriber's mandates, most recently signed first (then newest first). */
    listBySubscriber: (db: Executor, subscriberId: number): Promise<MandateRow[]> =>
      db
        .select()
        .from(mandates)
        .where(eq(mandates.subscriberId, subscriberId))
        .orderBy(desc(mandates.signedOn), desc(mandates.id)),

    /** A mandate by id, locked for the rest of the transaction when `lock` is set. */
    findById: async (db: Executor, id: number, { lock = false } = {}): Promise<MandateRow | undefined> => {
      const query = db.select().from(mandates).where(eq(mandates.id, id));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    /** Whether a mandate other than `exceptId` has the reference `rum` (compared exactly). */
    isReferenceTaken: async (db: Executor, rum: string, exceptId?: number): Promise<boolean> => {
      const [row] = await db
        .select({ id: mandates.id })
        .from(mandates)
        .where(and(eq(mandates.rum, rum), exceptId === undefined ? undefined : ne(mandates.id, exceptId)))
        .limit(1);
      return row !== undefined;
    },

    /** Stores a new active mandate; undefined when its reference is taken (nothing is stored then). */
    insert: async (db: Executor, values: NewMandate): Promise<MandateRow | undefined> => {
      const [row] = await db
        .insert(mandates)
        .values({ ...values, status: 'active' })
        .onConflictDoNothing({ target: mandates.rum })
        .returning();
      return row;
    },

    /** Sets `columns` on mandate `id`; the stored row after the change. */
    update: async (db: Executor, id: number, columns: MandateColumns): Promise<MandateRow | undefined> => {
      const [row] = await db.update(mandates).set(columns).where(eq(mandates.id, id)).returning();
      return row;
    },

    /** Deletes mandate `id`. */
    remove: async (db: Executor, id: number): Promise<void> => {
      await db.delete(mandates).where(eq(mandates.id, id));
    },

    /**
     * The subscriber's mandate the record shows: the active one signed most recently (the newest of
     * those signed the same day), or undefined when none is active.
     */
    currentActive: async (db: Executor, subscriberId: number): Promise<MandateRow | undefined> => {
      const [row] = await db
        .select()
        .from(mandates)
        .where(and(eq(mandates.subscriberId, subscriberId), eq(mandates.status, 'active')))
        .orderBy(desc(mandates.signedOn), desc(mandates.id))
        .limit(1);
      return row;
    },

    /**
     * Forgets the amendment of mandate `mandateId` (`original_rum`, `original_iban`, `amended_on`):
     * for the collection code, once a collection has sent it (`AmdmntInd` true with `OrgnlMndtId` and
     * `OrgnlDbtrAcct`, EPC rulebook). Run it in the transaction that records that collection.
     */
    clearAmendment: async (executor: Executor, mandateId: number): Promise<void> => {
      await executor
        .update(mandates)
        .set({ originalRum: null, originalIban: null, amendedOn: null })
        .where(eq(mandates.id, mandateId));
    },

    /** Whether an active mandate has been unused since `cutoff` (`YYYY-MM-DD`): the expiry's probe. */
    hasUnusedSince: async (db: Executor, cutoff: string): Promise<boolean> => {
      const [row] = await db.select({ id: mandates.id }).from(mandates).where(unusedSince(cutoff)).limit(1);
      return row !== undefined;
    },

    /**
     * Marks expired the active mandates unused since `cutoff` (`YYYY-MM-DD`, included), at most
     * `limit` of them, skipping those another transaction holds; what it expired.
     */
    expireUnusedSince: (db: Executor, cutoff: string, limit: number): Promise<ExpiredMandate[]> =>
      queryRows<ExpiredMandate>(
        db,
        sql`
          update mandates set status = 'expired'
          where id in (
            select id from mandates
            where status = 'active' and coalesce(last_collected_on, signed_on) <= ${cutoff}::date
            order by id
            limit ${limit}
            for update skip locked
          )
          returning id, subscriber_id as "subscriberId", rum,
            to_char(coalesce(last_collected_on, signed_on), 'YYYY-MM-DD') as "lastUsedOn"`,
      ),
  };
}

export type MandatesRepository = ReturnType<typeof createMandatesRepository>;
