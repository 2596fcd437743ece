import {
  addCalendarDays,
  calendarDay,
  DEFAULT_TIME_ZONE,
  startOfCalendarDay,
} from '@back-office/contract/calendar';
import type { InactiveSubscribersResult } from '@back-office/contract/subscribers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator } from '../../../test/api.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import {
  buildSale,
  buildSubscriber,
  insertDonation,
  insertProduct,
  insertSale,
  insertSubscribers,
} from '../../../test/factories.ts';
import { yearsBefore } from './subscriber-inactivity.service.ts';

/** The retention report (GDPR art. 5(1)(e)): `GET /api/subscribers/inactive`. */
const ctx = useTestApp();
const zone = DEFAULT_TIME_ZONE;

/** Dates the record's last change at `instant`, as if it was last saved then. */
async function touchedAt(id: number, instant: Date) {
  await ctx.database.db.execute(
    sql`update subscribers set updated_at = ${instant.toISOString()}::timestamptz where id = ${id}`,
  );
}

describe('yearsBefore', () => {
  it('goes back whole years, 29 February becoming 28 February', () => {
    expect(yearsBefore('2026-05-31', 3)).toBe('2023-05-31');
    expect(yearsBefore('2024-02-29', 1)).toBe('2023-02-28');
    expect(yearsBefore('2024-02-29', 4)).toBe('2020-02-29');
  });
});

describe('GET /api/subscribers/inactive', () => {
  it('lists visible subscribers with no change, donation or sale since the day N years ago, oldest first', async () => {
    const api = await asAdministrator(ctx);
    const today = calendarDay(ctx.clock.now(), zone);
    const cutoff = yearsBefore(today, 3);
    const dayBefore = addCalendarDays(cutoff, -1);
    const [onCutoff, justBefore, giftOnCutoff, giftBefore, saleBefore, recent, deleted] =
      await insertSubscribers(
        ctx,
        ['Limite', 'Veille', 'DonLimite', 'DonAncien', 'Achat', 'Récent', 'Supprimé'].map((lastName) =>
          buildSubscriber({ firstName: 'Zoé', lastName, title: '' }),
        ),
      );
    if (!onCutoff || !justBefore || !giftOnCutoff || !giftBefore || !saleBefore || !recent || !deleted)
      throw new Error('no subscribers');
    await insertDonation(ctx, giftOnCutoff.id, { donationDate: cutoff });
    await insertDonation(ctx, giftBefore.id, { donationDate: dayBefore });
    const product = await insertProduct(ctx);
    const sale = await insertSale(
      ctx,
      buildSale(saleBefore.id, [
        { productId: product.id, quantity: 1, euroUnitPrice: 12.5, swissUnitPrice: 14 },
      ]),
    );
    await api.expectStatus(204, 'DELETE', `/api/subscribers/${deleted.id}`);

    const startOfCutoff = startOfCalendarDay(cutoff, zone);
    const lastInstantBefore = new Date(startOfCutoff.getTime() - 1);
    await touchedAt(onCutoff.id, startOfCutoff);
    await touchedAt(justBefore.id, lastInstantBefore);
    const longAgo = startOfCalendarDay('2015-06-01', zone);
    for (const { id } of [giftOnCutoff, giftBefore, saleBefore, deleted]) await touchedAt(id, longAgo);
    await ctx.database.db.execute(
      sql`update sales set added_on = ${startOfCalendarDay('2018-03-04', zone).toISOString()}::timestamptz where id = ${sale.id}`,
    );

    const report = await api.expectStatus<InactiveSubscribersResult>(200, 'GET', '/api/subscribers/inactive');
    expect(report).toEqual({
      count: 3,
      years: 3,
      models: [
        { id: saleBefore.id, name: 'Zoé Achat', lastActivity: '2018-03-04', email: saleBefore.email },
        { id: giftBefore.id, name: 'Zoé DonAncien', lastActivity: dayBefore, email: giftBefore.email },
        { id: justBefore.id, name: 'Zoé Veille', lastActivity: dayBefore, email: justBefore.email },
      ],
    });

    const page = await api.expectStatus<InactiveSubscribersResult>(
      200,
      'GET',
      '/api/subscribers/inactive?listfrom=2&listlength=1',
    );
    expect(page.count).toBe(3);
    expect(page.models.map((model) => model.id)).toEqual([giftBefore.id]);
    const beyond = await api.expectStatus<InactiveSubscribersResult>(
      200,
      'GET',
      '/api/subscribers/inactive?listfrom=4',
    );
    expect(beyond).toMatchObject({ count: 3, models: [] });

    // A longer period from the settings leaves them all out but the oldest.
    const settings = await api.expectStatus<Record<string, unknown>>(200, 'GET', '/api/settings');
    await api.expectStatus(200, 'PUT', '/api/settings', { ...settings, inactivityReportYears: 7 });
    const longer = await api.expectStatus<InactiveSubscribersResult>(200, 'GET', '/api/subscribers/inactive');
    expect(longer).toMatchObject({ years: 7 });
    expect(longer.models.map((model) => model.id)).toEqual(
      yearsBefore(today, 7) > '2018-03-04' ? [saleBefore.id] : [],
    );
  });

  it('answers 403 to a User and 400 naming a bad paging parameter', async () => {
    const { tokens } = await createSignedInUser(ctx);
    const user = apiClient(ctx, tokens.id_token);
    expect((await user.get('/api/subscribers/inactive')).status).toBe(403);
    const api = await asAdministrator(ctx);
    for (const query of ['listfrom=0', 'listlength=501', 'listfrom=x']) {
      const refused = await api.get<{ errors: Array<{ path: string }> }>(
        `/api/subscribers/inactive?${query}`,
      );
      expect(refused.status, query).toBe(400);
      expect(refused.body.errors.map((error) => error.path)).toEqual([query.split('=')[0]]);
    }
  });

  it('keeps the settings period between 1 and 50 years, 3 by default', async () => {
    const api = await asAdministrator(ctx);
    const settings = await api.expectStatus<Record<string, unknown>>(200, 'GET', '/api/settings');
    expect(settings.inactivityReportYears).toBe(3);
    for (const bad of [0, 51, 2.5]) {
      const refused = await api.put<{ errors: Array<{ path: string }> }>('/api/settings', {
        ...settings,
        inactivityReportYears: bad,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((error) => error.path)).toEqual(['inactivityReportYears']);
    }
  });
});
