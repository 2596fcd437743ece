import { calendarDay, nextCalendarDay, startOfCalendarDay } from '@back-office/contract/calendar';
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { donations } from '../donations/donations.table.ts';
import { sales } from '../sales/sales.table.ts';
import { organisationSettings } from '../settings/settings.table.ts';
import { subscribers } from './subscribers.table.ts';

/** A subscriber of the retention report as read: `lastActivity` is the day in the organisation's zone. */
export type InactiveSubscriberRow = {
  id: number;
  title: string;
  firstName: string;
  lastName: string;
  email: string;
  lastActivity: string;
};

/**
 * SQL of the retention report (GDPR art. 5(1)(e)): visible subscribers whose last activity, the latest
 * of their record's `updated_at`, last donation day and last sale, is before an instant. It writes nothing.
 */
export function createSubscriberInactivityRepository() {
  /**
   * Visible subscribers with no activity since `before`: not changed since (the partial index on
   * `updated_at`), no gift dated on or after the first day that starts at or after `before` in the
   * organisation's zone, no sale added since. Each test is an anti-join probing the (subscriber, date)
   * indexes of donations and sales: counting a million candidates this way took a fifteenth of
   * computing each one's last activity.
   */
  const inactiveWhere = (before: Date, timeZone: string) => {
    const instant = sql`${before.toISOString()}::timestamptz`;
    const day = calendarDay(before, timeZone);
    const firstDay = startOfCalendarDay(day, timeZone) < before ? nextCalendarDay(day) : day;
    return sql`not s.hidden and s.updated_at < ${instant}
      and not exists (select 1 from ${donations} d where d.subscriber_id = s.id and d.donation_date >= ${firstDay}::date)
      and not exists (select 1 from ${sales} x where x.subscriber_id = s.id and x.added_on >= ${instant})`;
  };

  /** Each one's last activity, as an instant: the latest of its change, last gift (midnight of its day) and last sale. */
  const lastActivity = (timeZone: string) => sql`greatest(
      s.updated_at,
      (select max(d.donation_date) from ${donations} d where d.subscriber_id = s.id)::timestamp at time zone ${timeZone},
      (select max(x.added_on) from ${sales} x where x.subscriber_id = s.id))`;

  return {
    /** How many visible subscribers had no activity since `before`. */
    count: async (db: Executor, { before, timeZone }: { before: Date; timeZone: string }) => {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from ${subscribers} s where ${inactiveWhere(before, timeZone)}`,
      );
      return row?.n ?? 0;
    },

    /** One page of them, oldest activity first (then by id), from the 0-based `offset`. */
    page: (
      db: Executor,
      { before, timeZone, offset, limit }: { before: Date; timeZone: string; offset: number; limit: number },
    ) =>
      queryRows<InactiveSubscriberRow>(
        db,
        sql`select id, title, first_name as "firstName", last_name as "lastName", email,
                   to_char(last_activity at time zone ${timeZone}, 'YYYY-MM-DD') as "lastActivity"
              from (select s.id, s.title, s.first_name, s.last_name, s.email, ${lastActivity(timeZone)} as last_activity
                      from ${subscribers} s where ${inactiveWhere(before, timeZone)}) as inactive
             order by last_activity, id
             offset ${offset} limit ${limit}`,
      ),

    /** The settings' `inactivityReportYears`, or `fallback` before the settings row exists. */
    years: async (db: Executor, fallback: number) => {
      const [row] = await db
        .select({ years: organisationSettings.inactivityReportYears })
        .from(organisationSettings)
        .limit(1);
      return row?.years ?? fallback;
    },
  };
}

export type SubscriberInactivityRepository = ReturnType<typeof createSubscriberInactivityRepository>;
