import type { Plan, PlanChanges, PlanFrequency, PlanValues } from '@back-office/contract/plans';
import type { Database, Executor } from '../../db/client.ts';
import { formatAmount } from '../../lib/money.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { MandatesRepository } from '../mandates/mandates.repository.ts';
import { createSubscriberNotFoundError } from '../subscribers/subscribers.errors.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import {
  createPlanEndBeforeStartError,
  createPlanEndedError,
  createPlanMandateUnusableError,
  createPlanNotFoundError,
  createPlanUnknownCategoryError,
} from './plans.errors.ts';
import { type PlanColumns, type PlansRepository, toPlan } from './plans.repository.ts';
import type { PlanRow } from './plans.table.ts';

const FREQUENCY_WORDS: Record<PlanFrequency, string> = {
  monthly: 'monthly',
  quarterly: 'quarterly',
  halfYearly: 'half-yearly',
  yearly: 'yearly',
};

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd". */
function ordinal(day: number): string {
  const suffix =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  return `${day}${suffix}`;
}

/** Euros as the history writes them: `25,00 €`. */
const euros = (amount: number | string) => formatAmount(Number(amount), '€');

/** Euros as the `numeric(12,2)` text the database stores. */
const toNumeric = (amount: number) => amount.toFixed(2);

/**
 * Recurring gifts by SEPA direct debit (contract `plans`, docs/decisions/028, EPC SEPA Core Direct
 * Debit rulebook): a subscriber's list, their creation and change (pause, resume, end; never
 * deleted). Each write runs in one transaction that also writes a line in the subscriber's history.
 * Locks are taken plan first, then mandate, then subscriber, as the mandates take mandate, then
 * subscriber.
 */
export function createPlansService({
  db,
  repository,
  mandatesRepository,
  subscribersRepository,
  subscribersService,
}: {
  db: Database;
  repository: PlansRepository;
  mandatesRepository: Pick<MandatesRepository, 'findById'>;
  subscribersRepository: Pick<SubscribersRepository, 'findById' | 'lockById'>;
  subscribersService: Pick<SubscribersService, 'addHistory'>;
}) {
  /** Locks the subscriber, refusing a deleted or unknown one. @throws 404 */
  async function lockSubscriber(tx: Executor, subscriberId: number) {
    const row = await subscribersRepository.lockById(tx, subscriberId);
    if (!row || row.hidden) throw createSubscriberNotFoundError(`No subscriber has id ${subscriberId}.`);
    return row;
  }

  /**
   * Locks mandate `mandateId` and checks that it can carry a recurring gift of `subscriberId`: theirs,
   * active and recurring (a one-off mandate allows one collection only). Its RUM. @throws 409 naming
   * `mandateId`
   */
  async function usableMandate(tx: Executor, mandateId: number, subscriberId: number): Promise<string> {
    const mandate = await mandatesRepository.findById(tx, mandateId, { lock: true });
    const refuse = (detail: string, message: string) =>
      createPlanMandateUnusableError(detail, [{ path: 'mandateId', message }]);
    if (!mandate || mandate.subscriberId !== subscriberId) {
      throw refuse(
        `The subscriber has no mandate with id ${mandateId}.`,
        "Choose one of the subscriber's mandates.",
      );
    }
    if (mandate.status !== 'active') {
      throw refuse(
        `The mandate ${mandate.rum} is ${mandate.status}: it can no longer be collected.`,
        'Choose an active mandate.',
      );
    }
    if (mandate.type !== 'recurring') {
      throw refuse(
        `The mandate ${mandate.rum} is a one-off mandate: it allows one collection only.`,
        'Choose a recurring mandate.',
      );
    }
    return mandate.rum;
  }

  async function checkCategory(tx: Executor, categoryId: number | null | undefined) {
    if (categoryId == null || (await repository.categoryExists(tx, categoryId))) return;
    const message = 'Choose a category of the list.';
    throw createPlanUnknownCategoryError(`No category has id ${categoryId}.`, [
      { path: 'categoryId', message },
    ]);
  }

  /** "25,00 € monthly on the 5th from 2026-01-05 (to 2026-12-05)". */
  function describe(plan: Pick<PlanRow, 'amount' | 'frequency' | 'dayOfMonth' | 'startOn' | 'endOn'>) {
    const end = plan.endOn ? ` to ${plan.endOn}` : '';
    return `${euros(plan.amount)} ${FREQUENCY_WORDS[plan.frequency]} on the ${ordinal(plan.dayOfMonth)} from ${plan.startOn}${end}`;
  }

  return {
    /**
     * `GET /api/subscribers/{id}/plans`: the subscriber's recurring gifts, the most recently started
     * first. @throws 404 `subscribers.not_found` for an unknown or deleted subscriber.
     */
    list: async (subscriberId: number): Promise<Plan[]> => {
      const found = await subscribersRepository.findById(db, subscriberId);
      if (!found || found.row.hidden)
        throw createSubscriberNotFoundError(`No subscriber has id ${subscriberId}.`);
      return (await repository.listBySubscriber(db, subscriberId)).map(toPlan);
    },

    /**
     * `POST /api/subscribers/{id}/plans`: stores a new active recurring gift and writes "Recurring gift
     * of 25,00 € monthly on the 5th from 2026-01-05 under mandate RUM-1 added." in the history.
     * @throws 400 `plans.unknown_category` naming `categoryId`; 404 `subscribers.not_found`;
     *   409 `plans.mandate_unusable` naming `mandateId` (another subscriber's, not active, one-off).
     */
    create: (subscriberId: number, input: PlanValues, user: AuthUser): Promise<Plan> =>
      db.transaction(async (tx) => {
        const found = await subscribersRepository.findById(tx, subscriberId);
        if (!found || found.row.hidden)
          throw createSubscriberNotFoundError(`No subscriber has id ${subscriberId}.`);
        const rum = await usableMandate(tx, input.mandateId, subscriberId);
        await lockSubscriber(tx, subscriberId);
        await checkCategory(tx, input.categoryId);
        const row = await repository.insert(tx, {
          subscriberId,
          mandateId: input.mandateId,
          amount: toNumeric(input.amount),
          frequency: input.frequency,
          dayOfMonth: input.dayOfMonth,
          startOn: input.startOn,
          endOn: input.endOn,
          categoryId: input.categoryId,
          createdBy: user.fullName,
        });
        if (!row) throw createPlanNotFoundError('The recurring gift could not be stored.');
        await subscribersService.addHistory(tx, {
          subscriberId,
          userName: user.fullName,
          description: `Recurring gift of ${describe(row)} under mandate ${rum} added.`,
        });
        return toPlan(row);
      }),

    /**
     * `PATCH /api/plans/{id}`: changes the fields given; `status` pauses (`paused`), resumes
     * (`active`) or ends (`ended`, for good) the gift. A new mandate, or resuming, checks the mandate
     * as on creation. Writes one history line: "… paused.", "… resumed.", "… ended." or "… changed:
     * what from what to what.".
     * @throws 400 `plans.end_before_start` naming `endOn`, `plans.unknown_category` naming
     *   `categoryId`; 404 `plans.not_found`; 409 `plans.ended` for an ended plan;
     *   409 `plans.mandate_unusable` naming `mandateId`.
     */
    update: (id: number, changes: PlanChanges, user: AuthUser): Promise<Plan> =>
      db.transaction(async (tx) => {
        const plan = await repository.findById(tx, id, { lock: true });
        if (!plan) throw createPlanNotFoundError(`No recurring gift has id ${id}.`);
        if (plan.status === 'ended') {
          throw createPlanEndedError(
            'This recurring gift has ended: it cannot change any more. Add a new one instead.',
          );
        }
        const mandateId = changes.mandateId ?? plan.mandateId;
        const status = changes.status ?? plan.status;
        const resumed = plan.status === 'paused' && status === 'active';
        const mandateChanged = mandateId !== plan.mandateId;
        let rum: string | undefined;
        if (mandateChanged || resumed) rum = await usableMandate(tx, mandateId, plan.subscriberId);
        // A plan of a deleted subscriber is as good as unknown.
        const subscriber = await subscribersRepository.lockById(tx, plan.subscriberId);
        if (!subscriber || subscriber.hidden)
          throw createPlanNotFoundError(`No recurring gift has id ${id}.`);
        if (changes.categoryId !== undefined) await checkCategory(tx, changes.categoryId);

        const next = {
          amount: changes.amount === undefined ? plan.amount : toNumeric(changes.amount),
          frequency: changes.frequency ?? plan.frequency,
          dayOfMonth: changes.dayOfMonth ?? plan.dayOfMonth,
          startOn: changes.startOn ?? plan.startOn,
          endOn: changes.endOn === undefined ? plan.endOn : changes.endOn,
          categoryId: changes.categoryId === undefined ? plan.categoryId : changes.categoryId,
        };
        if (next.endOn !== null && next.endOn < next.startOn) {
          const message = 'The end date cannot be before the start date.';
          throw createPlanEndBeforeStartError(
            `The end date ${next.endOn} is before the start date ${next.startOn}.`,
            [{ path: 'endOn', message }],
          );
        }
        const said: string[] = [];
        if (Number(next.amount) !== Number(plan.amount))
          said.push(`amount from ${euros(plan.amount)} to ${euros(next.amount)}`);
        if (next.frequency !== plan.frequency)
          said.push(
            `frequency from ${FREQUENCY_WORDS[plan.frequency]} to ${FREQUENCY_WORDS[next.frequency]}`,
          );
        if (next.dayOfMonth !== plan.dayOfMonth)
          said.push(`day from the ${ordinal(plan.dayOfMonth)} to the ${ordinal(next.dayOfMonth)}`);
        if (next.startOn !== plan.startOn) said.push(`start from ${plan.startOn} to ${next.startOn}`);
        if (next.endOn !== plan.endOn)
          said.push(`end from ${plan.endOn ?? '(none)'} to ${next.endOn ?? '(none)'}`);
        if (mandateChanged) said.push(`mandate from ${plan.mandateRum} to ${rum}`);
        if (next.categoryId !== plan.categoryId) said.push('category changed');
        const statusChanged = status !== plan.status;
        if (said.length === 0 && !statusChanged) return toPlan(plan);

        const columns: PlanColumns = { ...next, mandateId, status };
        const row = await repository.update(tx, id, columns);
        if (!row) throw createPlanNotFoundError(`No recurring gift has id ${id}.`);
        const verb = status === 'ended' ? 'ended' : status === 'paused' ? 'paused' : 'resumed';
        const parts = [
          ...(said.length > 0 ? [`changed: ${said.join('; ')}`] : []),
          ...(statusChanged ? [verb] : []),
        ];
        await subscribersService.addHistory(tx, {
          subscriberId: plan.subscriberId,
          userName: user.fullName,
          description: `Recurring gift of ${describe(plan)} under mandate ${plan.mandateRum} ${parts.join(', then ')}.`,
        });
        return toPlan(row);
      }),
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
