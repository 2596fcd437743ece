import type { PlanFrequency, PlanStatus } from '@back-office/contract/plans';
import { formatMoney } from '../../lib/format.ts';

/** Euros in the French way: `1 234,50 €`. */
export function formatEuros(amount: number): string {
  return `${formatMoney(amount)} €`;
}

/** The words of each frequency. */
export const PLAN_FREQUENCY_LABELS: Record<PlanFrequency, string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  halfYearly: 'Every six months',
  yearly: 'Yearly',
};

/** The words and badge colour of each status. */
export const PLAN_STATUS_BADGES: Record<PlanStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'green' },
  paused: { label: 'Paused', color: 'yellow' },
  ended: { label: 'Ended', color: 'gray' },
};
