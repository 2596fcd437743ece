import { describe, expect, it } from 'vitest';
import {
  calendarDateTime,
  calendarDay,
  calendarDayRange,
  calendarMonth,
  calendarYear,
  nextCalendarDay,
  startOfCalendarDay,
} from './calendar.ts';

const PARIS = 'Europe/Paris';
const at = (iso: string) => new Date(iso);

describe('calendar days in the organisation time zone', () => {
  it('puts 31 December 23:30 and 1 January 00:30 in Paris in their own years', () => {
    // 23:30 on 31 Dec in Paris is 22:30 UTC; 00:30 on 1 Jan is 23:30 UTC the day before.
    expect(calendarDay(at('2026-12-31T22:30:00Z'), PARIS)).toBe('2026-12-31');
    expect(calendarYear(at('2026-12-31T22:30:00Z'), PARIS)).toBe(2026);
    expect(calendarDay(at('2026-12-31T23:30:00Z'), PARIS)).toBe('2027-01-01');
    expect(calendarYear(at('2026-12-31T23:30:00Z'), PARIS)).toBe(2027);
    expect(calendarDateTime(at('2026-12-31T23:30:00Z'), PARIS)).toBe('2027-01-01 00:30');
    expect(calendarMonth(at('2026-12-31T23:30:00Z'), PARIS)).toEqual({
      from: '2027-01-01',
      to: '2027-01-31',
    });
  });

  it('follows both summer-time changes', () => {
    // 29 March 2026: 02:00 → 03:00, the day has 23 hours; 25 October 2026: 03:00 → 02:00, 25 hours.
    expect(startOfCalendarDay('2026-03-29', PARIS).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfCalendarDay('2026-03-30', PARIS).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(calendarDateTime(at('2026-03-29T01:30:00Z'), PARIS)).toBe('2026-03-29 03:30');
    expect(startOfCalendarDay('2026-10-25', PARIS).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(startOfCalendarDay('2026-10-26', PARIS).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(calendarDay(at('2026-10-25T22:30:00Z'), PARIS)).toBe('2026-10-25');
    expect(calendarDay(at('2026-10-25T23:30:00Z'), PARIS)).toBe('2026-10-26');
  });

  it('makes a day filter cover the whole of its last day, 23:30 included', () => {
    const range = calendarDayRange({ from: '2026-03-29', to: '2026-03-29' }, PARIS);
    expect(range.start?.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(range.end?.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    const lateThatDay = at('2026-03-29T21:30:00Z');
    expect(lateThatDay >= (range.start as Date) && lateThatDay < (range.end as Date)).toBe(true);
    expect(calendarDayRange({}, PARIS)).toEqual({ start: undefined, end: undefined });
  });

  it('knows other zones, such as Zurich and UTC', () => {
    expect(calendarDay(at('2026-06-30T22:30:00Z'), 'Europe/Zurich')).toBe('2026-07-01');
    expect(calendarDay(at('2026-06-30T22:30:00Z'), 'UTC')).toBe('2026-06-30');
    expect(startOfCalendarDay('2026-06-30', 'UTC').toISOString()).toBe('2026-06-30T00:00:00.000Z');
  });

  it('adds a day across month, year and leap-day ends', () => {
    expect(nextCalendarDay('2026-12-31')).toBe('2027-01-01');
    expect(nextCalendarDay('2028-02-28')).toBe('2028-02-29');
    expect(nextCalendarDay('2026-03-29')).toBe('2026-03-30');
  });
});
