import { TZDate } from '@date-fns/tz';
import { addDays, format } from 'date-fns';

/**
 * Calendar days in the organisation's time zone (docs/decisions/012), for the server and the client alike:
 * "today", a year, a month and a day filter are days where the organisation is, never UTC days nor
 * the browser's. Instants are `Date`s (UTC inside); days are `YYYY-MM-DD` strings. Built on
 * `@date-fns/tz`, which reads the IANA zone rules (summer time included) from `Intl`.
 */

/** The organisation's time zone when none is configured (`ORG_TIMEZONE`). */
export const DEFAULT_TIME_ZONE = 'Europe/Paris';

/** True when `Intl` knows the IANA time zone `zone` (e.g. `Europe/Zurich`). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const inZone = (instant: Date, timeZone: string) => new TZDate(instant.getTime(), timeZone);

/** The calendar day (`YYYY-MM-DD`) that `instant` falls on in `timeZone`. */
export function calendarDay(instant: Date, timeZone: string): string {
  return format(inZone(instant, timeZone), 'yyyy-MM-dd');
}

/** The year that `instant` falls in, in `timeZone` (e.g. the year of a tax receipt). */
export function calendarYear(instant: Date, timeZone: string): number {
  return inZone(instant, timeZone).getFullYear();
}

/** Day and time of `instant` in `timeZone`, as `YYYY-MM-DD HH:mm` (24-hour clock). */
export function calendarDateTime(instant: Date, timeZone: string): string {
  return format(inZone(instant, timeZone), 'yyyy-MM-dd HH:mm');
}

/** The instant at which `day` (`YYYY-MM-DD`) begins in `timeZone`: its local midnight. */
export function startOfCalendarDay(day: string, timeZone: string): Date {
  const [year = Number.NaN, month = Number.NaN, date = Number.NaN] = day.split('-').map(Number);
  return new Date(new TZDate(year, month - 1, date, timeZone).getTime());
}

/** `day` (`YYYY-MM-DD`) plus `days` calendar days (e.g. a due date), whatever the zone. */
export function addCalendarDays(day: string, days: number): string {
  const [year = Number.NaN, month = Number.NaN, date = Number.NaN] = day.split('-').map(Number);
  return format(addDays(new Date(year, month - 1, date), days), 'yyyy-MM-dd');
}

/** The day after `day` (`YYYY-MM-DD`). */
export function nextCalendarDay(day: string): string {
  return addCalendarDays(day, 1);
}

/**
 * The instants a filter of days covers, `from` and `to` (`YYYY-MM-DD`) both included: from the start
 * of `from` (inclusive) to the start of the day after `to` (exclusive), in `timeZone`. A side left
 * out stays undefined. E.g. `to=2026-03-29` in Paris includes 23:30 that day (21:30 UTC).
 */
export function calendarDayRange(
  { from, to }: { from?: string | undefined; to?: string | undefined },
  timeZone: string,
): { start: Date | undefined; end: Date | undefined } {
  return {
    start: from ? startOfCalendarDay(from, timeZone) : undefined,
    end: to ? startOfCalendarDay(nextCalendarDay(to), timeZone) : undefined,
  };
}

/** The first and last days (`YYYY-MM-DD`) of the month `instant` falls in, in `timeZone`. */
export function calendarMonth(instant: Date, timeZone: string): { from: string; to: string } {
  const local = inZone(instant, timeZone);
  const first = new Date(local.getFullYear(), local.getMonth(), 1);
  const last = new Date(local.getFullYear(), local.getMonth() + 1, 0);
  return { from: format(first, 'yyyy-MM-dd'), to: format(last, 'yyyy-MM-dd') };
}
