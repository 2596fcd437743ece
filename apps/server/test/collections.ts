import { addCalendarDays, calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import type { CollectionDetail, CollectionSummary } from '@back-office/contract/collections';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/db/client.ts';
import { monthsBefore } from '../src/modules/mandates/mandates.service.ts';
import type { TestApi } from './api.ts';
import type { TestContext } from './context.ts';
import { buildSubscriber, insertSubscribers } from './factories.ts';

/** The creditor account, ICS and debtor account the collection tests use. */
export const CREDITOR_IBAN = 'FR7630006000011234567890189';
export const ICS = 'FR72ZZZ123456';
export const DEBTOR_IBAN = 'DE89370400440532013000';

/** Same day of the month, `months` later. */
export const monthsAfter = (day: string, months: number) => monthsBefore(day, -months);

/**
 * What the tests of SEPA collections set up on the test app `ctx`: the settings (`configure`), a
 * subscriber with a mandate and a plan (`givePlan`), due dates, and the build, detail and download calls.
 */
export function collectionFixtures(ctx: TestContext) {
  const today = () => calendarDay(ctx.clock.now(), DEFAULT_TIME_ZONE);

  /** The first day from today + `days` on whose day of the month is at most 28. */
  function dueAfter(days: number): string {
    let day = addCalendarDays(today(), days);
    while (Number(day.slice(8)) > 28) day = addCalendarDays(day, 1);
    return day;
  }

  async function configure(values: { ics?: string; firstAsRecurring?: boolean } = {}) {
    await ctx.database.db.execute(sql`
      insert into organisation_settings (id, organisation_name, sepa_creditor_id, sepa_first_as_recurring,
        sepa_creditor_iban, sepa_creditor_bic, address_street, address_postcode, address_town, address_country)
      values (1, 'Les Amis de l''Ecole', ${values.ics ?? ICS}, ${values.firstAsRecurring ?? false},
        ${CREDITOR_IBAN}, 'BNPAFRPP', 'rue de la Paix', '75002', 'Paris', 'FR')
      on conflict (id) do update set organisation_name = excluded.organisation_name,
        sepa_creditor_id = excluded.sepa_creditor_id, sepa_first_as_recurring = excluded.sepa_first_as_recurring,
        sepa_creditor_iban = excluded.sepa_creditor_iban, sepa_creditor_bic = excluded.sepa_creditor_bic,
        address_street = excluded.address_street, address_postcode = excluded.address_postcode,
        address_town = excluded.address_town, address_country = excluded.address_country`);
  }

  let rumSequence = 0;

  /** A subscriber with a mandate, and a plan of `amount` euros on it. */
  async function givePlan(
    plan: {
      startOn: string;
      frequency?: 'monthly' | 'quarterly' | 'halfYearly' | 'yearly';
      amount?: string;
      dayOfMonth?: number;
      endOn?: string | null;
      status?: 'active' | 'paused' | 'ended';
    },
    mandate: {
      type?: 'recurring' | 'oneOff';
      lastCollectedOn?: string | null;
      status?: 'active' | 'revoked';
      originalRum?: string;
    } = {},
    email?: string,
  ) {
    const [subscriber] = await insertSubscribers(ctx, [
      buildSubscriber(email === undefined ? {} : { email }),
    ]);
    if (!subscriber) throw new Error('no subscriber');
    rumSequence += 1;
    const rum = `RUM-TEST-${String(rumSequence).padStart(4, '0')}`;
    const [row] = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`insert into mandates (subscriber_id, rum, iban, bic, signed_on, type, status, last_collected_on,
          original_rum, amended_on)
        values (${subscriber.id}, ${rum}, ${DEBTOR_IBAN}, 'COBADEFFXXX', '2024-01-10', ${mandate.type ?? 'recurring'},
          ${mandate.status ?? 'active'}, ${mandate.lastCollectedOn ?? null},
          ${mandate.originalRum ?? null}, ${mandate.originalRum ? '2024-06-01' : null})
        returning id`,
    );
    const mandateId = row?.id ?? 0;
    const [planRow] = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`insert into plans (subscriber_id, mandate_id, amount, frequency, day_of_month, start_on, end_on, status, created_by)
        values (${subscriber.id}, ${mandateId}, ${plan.amount ?? '25.00'}, ${plan.frequency ?? 'monthly'},
          ${plan.dayOfMonth ?? Number(plan.startOn.slice(8))}, ${plan.startOn}, ${plan.endOn ?? null},
          ${plan.status ?? 'active'}, 'Test')
        returning id`,
    );
    return { subscriber, mandateId, rum, planId: planRow?.id ?? 0 };
  }

  const build = (api: TestApi, dueDate: string, status = 201) =>
    api.expectStatus<CollectionSummary>(status, 'POST', '/api/collections', { dueDate });
  const detail = (api: TestApi, id: number) =>
    api.expectStatus<CollectionDetail>(200, 'GET', `/api/collections/${id}`);
  const download = (api: TestApi, id: number, version = 'pain.008.001.02') =>
    api.get<string>(`/api/collections/${id}/file?version=${version}`);

  return { today, dueAfter, configure, givePlan, build, detail, download };
}
