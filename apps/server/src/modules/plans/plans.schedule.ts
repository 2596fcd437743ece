import type { PlanFrequency } from '@back-office/contract/plans';

/** Months between two installments of each frequency. */
const MONTHS_BETWEEN: Record<PlanFrequency, number> = { monthly: 1, quarterly: 3, halfYearly: 6, yearly: 12 };

/** What {@link installmentDates} reads of a plan; dates `YYYY-MM-DD`, `endOn` null or absent: no end. */
export type PlanSchedule = {
  frequency: PlanFrequency;
  dayOfMonth: number;
  startOn: string;
  endOn?: string | null | undefined;
};

/** `YYYY-MM-DD` -> months since year 0 (January of year 0 is 0). */
function monthIndex(day: string): number {
  const [year = 0, month = 1] = day.split('-').map(Number);
  return year * 12 + (month - 1);
}

function dayOf(index: number, dayOfMonth: number): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1, 2)}-${pad(dayOfMonth, 2)}`;
}

/**
 * The days, `YYYY-MM-DD` in order, on which `plan` has an installment between `from` and `to` (both
 * included): day `dayOfMonth` of every month (monthly), every 3rd, 6th or 12th month counted from
 * `startOn`'s month (quarterly, halfYearly, yearly), never before `startOn` (a plan starting on the
 * 10th with day 5 is first collected the next period) nor after `endOn`. `dayOfMonth` is 1 to 28, so
 * every month has it. Ignores the status: the caller skips paused and ended plans. For the collections
 * (EPC SEPA Core Direct Debit rulebook: one collection per installment; docs/decisions/028).
 */
export function installmentDates(plan: PlanSchedule, from: string, to: string): string[] {
  const first = from > plan.startOn ? from : plan.startOn;
  const last = plan.endOn && plan.endOn < to ? plan.endOn : to;
  if (first > last) return [];
  const step = MONTHS_BETWEEN[plan.frequency];
  const start = monthIndex(plan.startOn);
  // The first period at or after `first`'s month, counted in steps from the start's month.
  let index = start + Math.ceil(Math.max(0, monthIndex(first) - start) / step) * step;
  const days: string[] = [];
  for (; index <= monthIndex(last); index += step) {
    const day = dayOf(index, plan.dayOfMonth);
    if (day >= first && day <= last) days.push(day);
  }
  return days;
}
