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
   * The inactive subscribers with their last activity as an instant. Candidates come from the partial
   * index on `updated_at` (a record changed since is active whatever else); each one's last donation and
   * sale are then one probe of the (subscriber, date) indexes of donations and sales.
   */
  const inactive = (before: Date, timeZone: string) => {
    const instant = sql`${before.toISOString()}::timestamptz`;
    return sql`select * from (
        select s.id, s.title, s.first_name, s.last_name, s.email,
               greatest(
                 s.updated_at,
                 (select max(d.donation_date) from ${donations} d where d.subscriber_id = s.id)::timestamp at time zone ${timeZone},
                 (select max(x.added_on) from ${sales} x where x.subscriber_id = s.id)
               ) as last_activity
          from ${subscribers} s
         where not s.hidden and s.updated_at < ${instant}
      ) as candidates
      where last_activity < ${instant}`;
  };

  return {
    /** How many visible subscribers had no activity since `before`. */
    count: async (db: Executor, { before, timeZone }: { before: Date; timeZone: string }) => {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from (${inactive(before, timeZone)}) as inactive`,
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
              from (${inactive(before, timeZone)}) as inactive
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
