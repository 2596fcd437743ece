import { calendarDay, startOfCalendarDay } from '@back-office/contract/calendar';
import { INACTIVITY_REPORT_YEARS } from '@back-office/contract/personal-data';
import type { InactiveSubscribersQuery, InactiveSubscribersResult } from '@back-office/contract/subscribers';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SubscriberInactivityRepository } from './subscriber-inactivity.repository.ts';
import { subscriberName } from './subscribers.service.ts';

/**
 * The day `years` years before `day` (both `YYYY-MM-DD`); 29 February becomes 28 February in a year
 * without it.
 */
export function yearsBefore(day: string, years: number): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const target = year - years;
  const leap = (target % 4 === 0 && target % 100 !== 0) || target % 400 === 0;
  const lastOfMonth = month === 2 ? (leap ? 29 : 28) : date;
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${String(target).padStart(4, '0')}-${pad(month)}-${pad(Math.min(date, lastOfMonth))}`;
}

/**
 * The retention report (GDPR art. 5(1)(e), storage limitation): who has shown no sign of life for the
 * settings' `inactivityReportYears`, so that staff can decide to anonymise them (docs/decisions/019).
 */
export function createSubscriberInactivityService({
  db,
  repository,
  clock,
  timeZone,
}: {
  db: Database;
  repository: SubscriberInactivityRepository;
  clock: Clock;
  /** IANA zone of the organisation's days (docs/decisions/012). */
  timeZone: string;
}) {
  return {
    /**
     * `GET /api/subscribers/inactive`: `{count, years, models}` of the visible subscribers whose last
     * activity (the latest of their record's last change, last donation day and last sale) falls before
     * the day `years` years before today in the organisation's zone; activity on that day itself counts.
     * Oldest activity first; `lastActivity` is `YYYY-MM-DD`; `listfrom` is 1-based.
     */
    list: async ({ listfrom, listlength }: InactiveSubscribersQuery): Promise<InactiveSubscribersResult> => {
      const years = await repository.years(db, INACTIVITY_REPORT_YEARS.default);
      const before = startOfCalendarDay(yearsBefore(calendarDay(clock.now(), timeZone), years), timeZone);
      const { count, rows } = await repository.report(db, {
        before,
        timeZone,
        offset: listfrom - 1,
        limit: listlength,
      });
      return {
        count,
        years,
        models: rows.map((row) => ({
          id: row.id,
          name: subscriberName(row),
          lastActivity: row.lastActivity,
          email: row.email,
        })),
      };
    },
  };
}

export type SubscriberInactivityService = ReturnType<typeof createSubscriberInactivityService>;
