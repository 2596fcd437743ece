import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import type { Mandate } from '@back-office/contract/mandates';
import type { HistoryEntry, Subscriber } from '@back-office/contract/subscribers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator, type TestApi } from '../../../test/api.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { monthsBefore } from './mandates.service.ts';

const ctx = useTestApp();

const DAY_MS = 86_400_000;
const FRENCH_IBAN = 'FR7630006000011234567890189';
const SWISS_IBAN = 'CH9300762011623852957';
const GERMAN_IBAN = 'DE89370400440532013000';

type Problem = { code: string; errors?: Array<{ path: string; message: string }> };

async function newSubscriber() {
  const [subscriber] = await insertSubscribers(ctx, [buildSubscriber()]);
  if (!subscriber) throw new Error('no subscriber');
  return subscriber;
}

function addMandate(api: TestApi, subscriberId: number, overrides: Record<string, unknown> = {}) {
  return api.expectStatus<Mandate>(201, 'POST', `/api/subscribers/${subscriberId}/mandates`, {
    rum: 'RUM-000001-20250115',
    iban: 'fr76 3000 6000 0112 3456 7890 189',
    bic: 'bnpafrpp',
    signedOn: '2025-01-15',
    type: 'recurring',
    ...overrides,
  });
}

const record = (api: TestApi, id: number) =>
  api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${id}`);
const history = async (api: TestApi, id: number) =>
  (await api.expectStatus<HistoryEntry[]>(200, 'GET', `/api/subscribers/${id}/history`)).map(
    (entry) => entry.description,
  );
const markCollected = (id: number, day: string) =>
  ctx.database.db.execute(sql`update mandates set last_collected_on = ${day}::date where id = ${id}`);

describe('mandates of a subscriber', () => {
  it('adds, lists, changes and deletes mandates, showing the current one on the record', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const first = await addMandate(api, subscriber.id);
    expect(first).toEqual({
      id: expect.any(Number),
      subscriberId: subscriber.id,
      rum: 'RUM-000001-20250115',
      iban: FRENCH_IBAN,
      bic: 'BNPAFRPP',
      signedOn: '2025-01-15',
      type: 'recurring',
      status: 'active',
    });
    expect(await record(api, subscriber.id)).toMatchObject({ rum: first.rum, iban: FRENCH_IBAN });

    // A later signature becomes the one the record shows; the list is most recently signed first.
    const second = await addMandate(api, subscriber.id, {
      rum: "ABO/2025 (CH) - n'2",
      iban: SWISS_IBAN,
      bic: null,
      signedOn: '2025-03-01',
      type: 'oneOff',
    });
    expect(second).not.toHaveProperty('bic');
    const listed = await api.expectStatus<Mandate[]>(
      200,
      'GET',
      `/api/subscribers/${subscriber.id}/mandates`,
    );
    expect(listed.map((mandate) => mandate.id)).toEqual([second.id, first.id]);
    expect(await record(api, subscriber.id)).toMatchObject({ rum: second.rum, iban: SWISS_IBAN });

    // A change of a mandate never used is no amendment.
    const changed = await api.expectStatus<Mandate>(200, 'PATCH', `/api/mandates/${second.id}`, {
      iban: GERMAN_IBAN,
      bic: 'COBADEFFXXX',
    });
    expect(changed).toMatchObject({ iban: GERMAN_IBAN, bic: 'COBADEFFXXX', rum: second.rum });
    expect(changed).not.toHaveProperty('amendment');
    expect(await record(api, subscriber.id)).toMatchObject({ iban: GERMAN_IBAN });

    await api.expectStatus(204, 'DELETE', `/api/mandates/${second.id}`);
    expect(await record(api, subscriber.id)).toMatchObject({ rum: first.rum, iban: FRENCH_IBAN });
    await api.expectStatus(204, 'DELETE', `/api/mandates/${first.id}`);
    expect(await record(api, subscriber.id)).toMatchObject({ rum: '', iban: '' });
    expect(await api.expectStatus(200, 'GET', `/api/subscribers/${subscriber.id}/mandates`)).toEqual([]);
    await api.expectStatus(404, 'DELETE', `/api/mandates/${first.id}`);

    expect(await history(api, subscriber.id)).toEqual(
      expect.arrayContaining([
        `Mandate RUM-000001-20250115 added (recurring, IBAN ending 0189, signed on 2025-01-15).`,
        `Mandate ABO/2025 (CH) - n'2 added (one-off, IBAN ending 2957, signed on 2025-03-01).`,
        `Mandate ABO/2025 (CH) - n'2 changed: IBAN from ending 2957 to ending 3000; BIC from (none) to COBADEFFXXX.`,
        `Mandate ABO/2025 (CH) - n'2 deleted.`,
        'Mandate RUM-000001-20250115 deleted.',
      ]),
    );
  });

  it('refuses a bad IBAN, BIC, RUM, type or date with a 400 naming the field', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const url = `/api/subscribers/${subscriber.id}/mandates`;
    const valid = { rum: 'R-1', iban: FRENCH_IBAN, signedOn: '2025-01-15', type: 'recurring' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ iban: 'FR7630006000011234567890188' }, 'iban'],
      [{ iban: '' }, 'iban'],
      [{ bic: 'NOTABIC' }, 'bic'],
      [{ rum: 'RUM_WITH_UNDERSCORE' }, 'rum'],
      [{ rum: 'Référence' }, 'rum'],
      [{ rum: 'x'.repeat(36) }, 'rum'],
      [{ rum: '/ABC' }, 'rum'],
      [{ rum: '   ' }, 'rum'],
      [{ type: 'weekly' }, 'type'],
      [{ signedOn: '2025-02-30' }, 'signedOn'],
    ];
    for (const [change, field] of cases) {
      const answer = await api.post<Problem>(url, { ...valid, ...change });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(
        answer.body.errors?.map((error) => error.path),
        JSON.stringify(change),
      ).toEqual([field]);
    }
    const future = await api.post<Problem>(url, { ...valid, signedOn: '2999-01-01' });
    expect(future.status).toBe(400);
    expect(future.body).toMatchObject({ code: 'mandates.future_signature', errors: [{ path: 'signedOn' }] });
    expect(await api.expectStatus(200, 'GET', url)).toEqual([]);
    await api.expectStatus(404, 'POST', '/api/subscribers/999999/mandates', valid);
    await api.expectStatus(404, 'GET', '/api/subscribers/999999/mandates');
  });

  it('refuses a RUM another mandate has, on creation and on change', async () => {
    const api = await asAdministrator(ctx);
    const [one, two] = await insertSubscribers(ctx, [buildSubscriber(), buildSubscriber()]);
    if (!one || !two) throw new Error('no subscribers');
    await addMandate(api, one.id, { rum: 'TAKEN-1' });
    const other = await addMandate(api, two.id, { rum: 'FREE-1' });
    const taken = await api.post<Problem>(`/api/subscribers/${two.id}/mandates`, {
      rum: 'TAKEN-1',
      iban: FRENCH_IBAN,
      signedOn: '2025-01-15',
      type: 'recurring',
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'mandates.rum_taken', errors: [{ path: 'rum' }] });
    const renamed = await api.patch<Problem>(`/api/mandates/${other.id}`, { rum: 'TAKEN-1' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors?.[0]?.path).toBe('rum');
  });

  it('records a change of RUM or IBAN of a used mandate as an amendment, kept from the first change', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const mandate = await addMandate(api, subscriber.id, { rum: 'USED-1' });
    await markCollected(mandate.id, '2025-02-05');
    const today = calendarDay(ctx.clock.now(), DEFAULT_TIME_ZONE);

    const ibanChanged = await api.expectStatus<Mandate>(200, 'PATCH', `/api/mandates/${mandate.id}`, {
      iban: SWISS_IBAN,
    });
    expect(ibanChanged.amendment).toEqual({ originalIban: FRENCH_IBAN, amendedOn: today });
    // A second change keeps the values of the last collection, and adds the RUM's.
    const both = await api.expectStatus<Mandate>(200, 'PATCH', `/api/mandates/${mandate.id}`, {
      iban: GERMAN_IBAN,
      rum: 'USED-2',
    });
    expect(both).toMatchObject({
      rum: 'USED-2',
      iban: GERMAN_IBAN,
      lastCollectedOn: '2025-02-05',
      amendment: { originalRum: 'USED-1', originalIban: FRENCH_IBAN },
    });
    // A change of the BIC or the type alone is no amendment.
    const typed = await api.expectStatus<Mandate>(200, 'PATCH', `/api/mandates/${mandate.id}`, {
      type: 'oneOff',
    });
    expect(typed.amendment).toEqual(both.amendment);
    // Back to the values the bank knows: nothing to announce.
    const back = await api.expectStatus<Mandate>(200, 'PATCH', `/api/mandates/${mandate.id}`, {
      iban: FRENCH_IBAN,
      rum: 'USED-1',
    });
    expect(back).not.toHaveProperty('amendment');
    expect(await record(api, subscriber.id)).toMatchObject({ rum: 'USED-1', iban: FRENCH_IBAN });
    expect((await history(api, subscriber.id))[0]).toBe(
      'Mandate USED-2 changed: RUM from USED-2 to USED-1; IBAN from ending 3000 to ending 0189.',
    );
  });

  it('keeps a used mandate: deleting it is a 409, revoking it ends it', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const mandate = await addMandate(api, subscriber.id, { rum: 'KEPT-1' });
    await markCollected(mandate.id, '2025-02-05');
    const refused = await api.delete<Problem>(`/api/mandates/${mandate.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('mandates.used');

    const bad = await api.post<Problem>(`/api/mandates/${mandate.id}/revoke`, { reason: '  ' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.path).toBe('reason');
    const revoked = await api.expectStatus<Mandate>(200, 'POST', `/api/mandates/${mandate.id}/revoke`, {
      reason: 'Debtor closed the account.',
    });
    expect(revoked).toMatchObject({
      status: 'revoked',
      revokedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      revokedReason: 'Debtor closed the account.',
    });
    expect(await record(api, subscriber.id)).toMatchObject({ rum: '', iban: '' });
    expect((await history(api, subscriber.id))[0]).toBe('Mandate KEPT-1 revoked: Debtor closed the account.');
    expect((await api.post<Problem>(`/api/mandates/${mandate.id}/revoke`, { reason: 'again' })).status).toBe(
      409,
    );
    const changed = await api.patch<Problem>(`/api/mandates/${mandate.id}`, { iban: SWISS_IBAN });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('mandates.not_active');
  });

  it('expires the mandates unused for 36 months with the daily job', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const today = calendarDay(ctx.clock.now(), DEFAULT_TIME_ZONE);
    await addMandate(api, subscriber.id, { rum: 'OLD-SIGNED', signedOn: today });
    const used = await addMandate(api, subscriber.id, { rum: 'OLD-USED', signedOn: '2020-01-01' });
    await markCollected(used.id, today);

    // A day or two short of 36 months: nothing expires (signed in again: the tokens expired meanwhile).
    ctx.clock.advance((3 * 365 - 1) * DAY_MS);
    await ctx.app.jobs.runDue();
    let admin = await asAdministrator(ctx);
    const statuses = async () =>
      (await admin.expectStatus<Mandate[]>(200, 'GET', `/api/subscribers/${subscriber.id}/mandates`)).map(
        (mandate) => [mandate.rum, mandate.status],
      );
    expect(await statuses()).toEqual([
      ['OLD-SIGNED', 'active'],
      ['OLD-USED', 'active'],
    ]);

    ctx.clock.advance(5 * DAY_MS);
    await ctx.app.jobs.runDue();
    admin = await asAdministrator(ctx);
    expect(await statuses()).toEqual([
      ['OLD-SIGNED', 'expired'],
      ['OLD-USED', 'expired'],
    ]);
    expect(await record(admin, subscriber.id)).toMatchObject({ rum: '', iban: '' });
    const lines = await history(admin, subscriber.id);
    expect(lines).toContain(`Mandate OLD-SIGNED expired: unused since ${today} (36 months).`);
    expect(lines).toContain(`Mandate OLD-USED expired: unused since ${today} (36 months).`);
  });

  it('counts months as the calendar does', () => {
    expect(monthsBefore('2028-01-15', 36)).toBe('2025-01-15');
    expect(monthsBefore('2027-02-28', 36)).toBe('2024-02-28');
    expect(monthsBefore('2027-05-31', 3)).toBe('2027-02-28');
    expect(monthsBefore('2028-03-31', 1)).toBe('2028-02-29');
  });

  it('lets any signed-in user manage mandates, and nobody signed out', async () => {
    const subscriber = await newSubscriber();
    const { tokens } = await createSignedInUser(ctx, { email: 'mandates.user@example.org' });
    const user = apiClient(ctx, tokens.id_token);
    const mandate = await addMandate(user, subscriber.id, { rum: 'BY-USER' });
    await user.expectStatus(200, 'POST', `/api/mandates/${mandate.id}/revoke`, { reason: 'Asked by phone.' });
    const anonymous = apiClient(ctx);
    expect((await anonymous.get(`/api/subscribers/${subscriber.id}/mandates`)).status).toBe(401);
    expect(
      (
        await anonymous.post(`/api/subscribers/${subscriber.id}/mandates`, {
          rum: 'X',
          iban: FRENCH_IBAN,
          signedOn: '2025-01-01',
          type: 'recurring',
        })
      ).status,
    ).toBe(401);
    expect((await anonymous.patch(`/api/mandates/${mandate.id}`, { type: 'oneOff' })).status).toBe(401);
    expect((await anonymous.delete(`/api/mandates/${mandate.id}`)).status).toBe(401);
    expect((await anonymous.post(`/api/mandates/${mandate.id}/revoke`, { reason: 'x' })).status).toBe(401);
  });
});
