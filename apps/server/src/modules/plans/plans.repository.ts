import type { Plan } from '@back-office/contract/plans';
import { desc, eq, getTableColumns } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mandates } from '../mandates/mandates.table.ts';
import { categories } from '../reference-lists/reference-lists.table.ts';
import { type PlanRow, plans } from './plans.table.ts';

/** A stored plan with the reference (RUM) of its mandate. */
export type PlanWithMandate = PlanRow & { mandateRum: string };

/** The columns of a new plan; `amount` is the `numeric` text ("25.00"). */
export type NewPlan = Pick<
  PlanRow,
  | 'subscriberId'
  | 'mandateId'
  | 'amount'
  | 'frequency'
  | 'dayOfMonth'
  | 'startOn'
  | 'endOn'
  | 'categoryId'
  | 'createdBy'
>;

/** The columns a change may set. */
export type PlanColumns = Partial<Omit<PlanRow, 'id' | 'subscriberId' | 'createdAt' | 'createdBy'>>;

/** The wire shape of a stored plan: euros as a number, optional fields left out rather than null. */
export function toPlan(row: PlanWithMandate): Plan {
  return {
    id: row.id,
    subscriberId: row.subscriberId,
    mandateId: row.mandateId,
    mandateRum: row.mandateRum,
    amount: Number(row.amount),
    frequency: row.frequency,
    dayOfMonth: row.dayOfMonth,
    startOn: row.startOn,
    ...(row.endOn !== null ? { endOn: row.endOn } : {}),
    ...(row.categoryId !== null ? { categoryId: row.categoryId } : {}),
    status: row.status,
  };
}

const withRum = { ...getTableColumns(plans), mandateRum: mandates.rum };

/** All SQL of the recurring gifts (contract `plans`). Every function runs on the executor it is given. */
export function createPlansRepository() {
  /** Plan `id` with its mandate's RUM. */
  const findWithRum = async (db: Executor, id: number): Promise<PlanWithMandate | undefined> => {
    const [row] = await db
      .select(withRum)
      .from(plans)
      .innerJoin(mandates, eq(mandates.id, plans.mandateId))
      .where(eq(plans.id, id));
    return row;
  };

  return {
    /** A subscriber's plans with their mandates' RUM, the most recently started first (then newest first). */
    listBySubscriber: (db: Executor, subscriberId: number): Promise<PlanWithMandate[]> =>
      db
        .select(withRum)
        .from(plans)
        .innerJoin(mandates, eq(mandates.id, plans.mandateId))
        .where(eq(plans.subscriberId, subscriberId))
        .orderBy(desc(plans.startOn), desc(plans.id)),

    /** Plan `id` with its mandate's RUM, the plan (only) locked for the rest of the transaction when `lock` is set. */
    findById: async (
      db: Executor,
      id: number,
      { lock = false } = {},
    ): Promise<PlanWithMandate | undefined> => {
      const query = db
        .select(withRum)
        .from(plans)
        .innerJoin(mandates, eq(mandates.id, plans.mandateId))
        .where(eq(plans.id, id));
      const [row] = lock ? await query.for('update', { of: plans }) : await query;
      return row;
    },

    /** Whether category `id` exists. */
    categoryExists: async (db: Executor, id: number): Promise<boolean> => {
      const [row] = await db
        .select({ id: categories.id })
        .from(categories)
        .where(eq(categories.id, id))
        .limit(1);
      return row !== undefined;
    },

    /** Stores a new active plan; the stored row with its mandate's RUM. */
    insert: async (db: Executor, values: NewPlan): Promise<PlanWithMandate | undefined> => {
      const [row] = await db
        .insert(plans)
        .values({ ...values, status: 'active' })
        .returning({ id: plans.id });
      return row ? findWithRum(db, row.id) : undefined;
    },

    /** Sets `columns` on plan `id`; the stored row after the change, with its mandate's RUM. */
    update: async (db: Executor, id: number, columns: PlanColumns): Promise<PlanWithMandate | undefined> => {
      await db.update(plans).set(columns).where(eq(plans.id, id));
      return findWithRum(db, id);
    },
  };
}

export type PlansRepository = ReturnType<typeof createPlansRepository>;
