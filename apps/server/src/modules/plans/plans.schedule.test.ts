import { describe, expect, it } from 'vitest';
import { installmentDates } from './plans.schedule.ts';

const monthly = { frequency: 'monthly', dayOfMonth: 5, startOn: '2026-01-05' } as const;

describe('installmentDates', () => {
  it('gives every month on the day, the range included at both ends', () => {
    expect(installmentDates(monthly, '2026-01-05', '2026-04-05')).toEqual([
      '2026-01-05',
      '2026-02-05',
      '2026-03-05',
      '2026-04-05',
    ]);
    expect(installmentDates(monthly, '2026-01-06', '2026-04-04')).toEqual(['2026-02-05', '2026-03-05']);
  });

  it('starts the period after a start in the month past the day', () => {
    const plan = { frequency: 'monthly', dayOfMonth: 5, startOn: '2026-01-20' } as const;
    expect(installmentDates(plan, '2025-12-01', '2026-03-31')).toEqual(['2026-02-05', '2026-03-05']);
    const quarterly = { frequency: 'quarterly', dayOfMonth: 5, startOn: '2026-01-20' } as const;
    expect(installmentDates(quarterly, '2026-01-01', '2026-12-31')).toEqual([
      '2026-04-05',
      '2026-07-05',
      '2026-10-05',
    ]);
  });

  it('counts quarters, half years and years from the start month, across years', () => {
    const quarterly = { frequency: 'quarterly', dayOfMonth: 28, startOn: '2025-11-01' } as const;
    expect(installmentDates(quarterly, '2026-01-01', '2026-12-31')).toEqual([
      '2026-02-28',
      '2026-05-28',
      '2026-08-28',
      '2026-11-28',
    ]);
    const halfYearly = { frequency: 'halfYearly', dayOfMonth: 1, startOn: '2024-03-01' } as const;
    expect(installmentDates(halfYearly, '2026-01-01', '2026-12-31')).toEqual(['2026-03-01', '2026-09-01']);
    const yearly = { frequency: 'yearly', dayOfMonth: 15, startOn: '2020-06-15' } as const;
    expect(installmentDates(yearly, '2026-06-16', '2028-06-15')).toEqual(['2027-06-15', '2028-06-15']);
  });

  it('gives day 28 at the end of February, leap year or not', () => {
    const plan = { frequency: 'monthly', dayOfMonth: 28, startOn: '2027-12-31' } as const;
    expect(installmentDates(plan, '2028-01-01', '2028-03-31')).toEqual([
      '2028-01-28',
      '2028-02-28',
      '2028-03-28',
    ]);
  });

  it('stops at the end date, and gives nothing outside the plan', () => {
    const plan = { ...monthly, endOn: '2026-03-05' };
    expect(installmentDates(plan, '2026-01-01', '2026-12-31')).toEqual([
      '2026-01-05',
      '2026-02-05',
      '2026-03-05',
    ]);
    expect(installmentDates({ ...monthly, endOn: '2026-03-04' }, '2026-03-01', '2026-03-31')).toEqual([]);
    expect(installmentDates(monthly, '2025-01-01', '2026-01-04')).toEqual([]);
    expect(installmentDates({ ...monthly, endOn: null }, '2026-05-10', '2026-05-01')).toEqual([]);
  });
});
