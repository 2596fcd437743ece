import type { Mandate } from '@back-office/contract/mandates';
import type { Plan } from '@back-office/contract/plans';
import type { HistoryEntry } from '@back-office/contract/subscribers';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator, type TestApi } from '../../../test/api.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';

const ctx = useTestApp();

type Problem = { code: string; errors?: Array<{ path: string; message: string }> };

async function newSubscriber() {
  const [subscriber] = await insertSubscribers(ctx, [buildSubscriber()]);
  if (!subscriber) throw new Error('no subscriber');
  return subscriber;
}

function addMandate(api: TestApi, subscriberId: number, overrides: Record<string, unknown> = {}) {
  return api.expectStatus<Mandate>(201, 'POST', `/api/subscribers/${subscriberId}/mandates`, {
    rum: 'RUM-1',
    iban: 'FR7630006000011234567890189',
    signedOn: '2025-01-15',
    type: 'recurring',
    ...overrides,
  });
}

const history = async (api: TestApi, id: number) =>
  (await api.expectStatus<HistoryEntry[]>(200, 'GET', `/api/subscribers/${id}/history`)).map(
    (entry) => entry.description,
  );

const gift = (mandateId: number, overrides: Record<string, unknown> = {}) => ({
  amount: 25,
  frequency: 'monthly',
  dayOfMonth: 5,
  startOn: '2026-01-05',
  mandateId,
  ...overrides,
});

describe('recurring gifts of a subscriber', () => {
  it('adds, lists, changes, pauses, resumes and ends a plan, with a history line for each', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const mandate = await addMandate(api, subscriber.id);
    const category = await api.expectStatus<{ id: number }>(201, 'POST', '/api/cats', { name: 'Parrainage' });
    const url = `/api/subscribers/${subscriber.id}/plans`;

    const plan = await api.expectStatus<Plan>(201, 'POST', url, gift(mandate.id));
    expect(plan).toEqual({
      id: expect.any(Number),
      subscriberId: subscriber.id,
      mandateId: mandate.id,
      mandateRum: 'RUM-1',
      amount: 25,
      frequency: 'monthly',
      dayOfMonth: 5,
      startOn: '2026-01-05',
      status: 'active',
    });
    const later = await api.expectStatus<Plan>(
      201,
      'POST',
      url,
      gift(mandate.id, {
        amount: 120.5,
        frequency: 'yearly',
        dayOfMonth: 1,
        startOn: '2026-03-01',
        endOn: '2030-03-01',
        categoryId: category.id,
      }),
    );
    expect(later).toMatchObject({ amount: 120.5, endOn: '2030-03-01', categoryId: category.id });
    const listed = await api.expectStatus<Plan[]>(200, 'GET', url);
    expect(listed.map((item) => item.id)).toEqual([later.id, plan.id]);

    const changed = await api.expectStatus<Plan>(200, 'PATCH', `/api/plans/${plan.id}`, {
      amount: 30,
      dayOfMonth: 22,
      endOn: '2026-12-22',
    });
    expect(changed).toMatchObject({ amount: 30, dayOfMonth: 22, endOn: '2026-12-22', status: 'active' });
    expect(
      (await api.expectStatus<Plan>(200, 'PATCH', `/api/plans/${plan.id}`, { status: 'paused' })).status,
    ).toBe('paused');
    expect(
      (await api.expectStatus<Plan>(200, 'PATCH', `/api/plans/${plan.id}`, { status: 'active' })).status,
    ).toBe('active');
    const removedEnd = await api.expectStatus<Plan>(200, 'PATCH', `/api/plans/${later.id}`, {
      endOn: null,
      categoryId: null,
    });
    expect(removedEnd).not.toHaveProperty('endOn');
    expect(removedEnd).not.toHaveProperty('categoryId');
    expect(
      (await api.expectStatus<Plan>(200, 'PATCH', `/api/plans/${plan.id}`, { status: 'ended' })).status,
    ).toBe('ended');

    const refused = await api.patch<Problem>(`/api/plans/${plan.id}`, { status: 'active' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('plans.ended');
    expect((await api.patch<Problem>(`/api/plans/${plan.id}`, { amount: 10 })).status).toBe(409);
    expect((await api.patch<Problem>('/api/plans/999999', { amount: 10 })).status).toBe(404);
    // Never deleted.
    expect((await api.delete(`/api/plans/${plan.id}`)).status).toBe(404);

    expect(await history(api, subscriber.id)).toEqual(
      expect.arrayContaining([
        'Recurring gift of 25,00 € monthly on the 5th from 2026-01-05 under mandate RUM-1 added.',
        'Recurring gift of 120,50 € yearly on the 1st from 2026-03-01 to 2030-03-01 under mandate RUM-1 added.',
        'Recurring gift of 25,00 € monthly on the 5th from 2026-01-05 under mandate RUM-1 changed: amount from 25,00 € to 30,00 €; day from the 5th to the 22nd; end from (none) to 2026-12-22.',
        'Recurring gift of 30,00 € monthly on the 22nd from 2026-01-05 to 2026-12-22 under mandate RUM-1 paused.',
        'Recurring gift of 30,00 € monthly on the 22nd from 2026-01-05 to 2026-12-22 under mandate RUM-1 resumed.',
        'Recurring gift of 30,00 € monthly on the 22nd from 2026-01-05 to 2026-12-22 under mandate RUM-1 ended.',
        'Recurring gift of 120,50 € yearly on the 1st from 2026-03-01 to 2030-03-01 under mandate RUM-1 changed: end from 2030-03-01 to (none); category changed.',
      ]),
    );
  });

  it('refuses a mandate of another subscriber, revoked or one-off with a 409 naming mandateId', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const other = await newSubscriber();
    const url = `/api/subscribers/${subscriber.id}/plans`;
    const theirs = await addMandate(api, other.id, { rum: 'THEIRS' });
    const oneOff = await addMandate(api, subscriber.id, { rum: 'ONCE', type: 'oneOff' });
    const revoked = await addMandate(api, subscriber.id, { rum: 'GONE' });
    await api.expectStatus(200, 'POST', `/api/mandates/${revoked.id}/revoke`, { reason: 'Closed.' });
    for (const mandateId of [theirs.id, oneOff.id, revoked.id, 999999]) {
      const answer = await api.post<Problem>(url, gift(mandateId));
      expect(answer.status, String(mandateId)).toBe(409);
      expect(answer.body.code).toBe('plans.mandate_unusable');
      expect(answer.body.errors?.map((error) => error.path)).toEqual(['mandateId']);
    }

    // A paused plan whose mandate was revoked cannot resume, nor move to an unusable mandate.
    const mandate = await addMandate(api, subscriber.id, { rum: 'GOOD' });
    const plan = await api.expectStatus<Plan>(201, 'POST', url, gift(mandate.id));
    await api.expectStatus(200, 'PATCH', `/api/plans/${plan.id}`, { status: 'paused' });
    const moved = await api.patch<Problem>(`/api/plans/${plan.id}`, { mandateId: oneOff.id });
    expect(moved.status).toBe(409);
    expect(moved.body.errors?.[0]?.path).toBe('mandateId');
    await api.expectStatus(200, 'POST', `/api/mandates/${mandate.id}/revoke`, { reason: 'Closed.' });
    const resumed = await api.patch<Problem>(`/api/plans/${plan.id}`, { status: 'active' });
    expect(resumed.status).toBe(409);
    expect(resumed.body.code).toBe('plans.mandate_unusable');

    expect((await api.post<Problem>('/api/subscribers/999999/plans', gift(mandate.id))).status).toBe(404);
    expect((await api.get('/api/subscribers/999999/plans')).status).toBe(404);
  });

  it('refuses bad fields with a 400 naming the field', async () => {
    const api = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const mandate = await addMandate(api, subscriber.id);
    const url = `/api/subscribers/${subscriber.id}/plans`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: 100000.01 }, 'amount'],
      [{ amount: 1.005 }, 'amount'],
      [{ amount: '25' }, 'amount'],
      [{ frequency: 'weekly' }, 'frequency'],
      [{ dayOfMonth: 29 }, 'dayOfMonth'],
      [{ dayOfMonth: 0 }, 'dayOfMonth'],
      [{ dayOfMonth: 1.5 }, 'dayOfMonth'],
      [{ startOn: '2026-02-30' }, 'startOn'],
      [{ endOn: '2025-12-31' }, 'endOn'],
      [{ mandateId: 'x' }, 'mandateId'],
      [{ categoryId: 999999 }, 'categoryId'],
    ];
    for (const [change, field] of cases) {
      const answer = await api.post<Problem>(url, gift(mandate.id, change));
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(
        answer.body.errors?.map((error) => error.path),
        JSON.stringify(change),
      ).toEqual([field]);
    }
    expect((await api.post<Problem>(url, gift(mandate.id, { amount: 100000 }))).status).toBe(201);

    const plan = await api.expectStatus<Plan>(201, 'POST', url, gift(mandate.id, { endOn: '2026-06-05' }));
    // An end before the kept start date, or a start after the kept end date.
    for (const change of [{ endOn: '2025-01-01' }, { startOn: '2026-07-01' }]) {
      const answer = await api.patch<Problem>(`/api/plans/${plan.id}`, change);
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.errors?.map((error) => error.path)).toEqual(['endOn']);
    }
    const status = await api.patch<Problem>(`/api/plans/${plan.id}`, { status: 'stopped' });
    expect(status.status).toBe(400);
    expect(status.body.errors?.[0]?.path).toBe('status');
    const category = await api.patch<Problem>(`/api/plans/${plan.id}`, { categoryId: 999999 });
    expect(category.status).toBe(400);
    expect(category.body.errors?.[0]?.path).toBe('categoryId');
  });

  it('lets any signed-in user manage plans, and nobody signed out', async () => {
    const admin = await asAdministrator(ctx);
    const subscriber = await newSubscriber();
    const mandate = await addMandate(admin, subscriber.id);
    const { tokens } = await createSignedInUser(ctx, { email: 'plans.user@example.org' });
    const user = apiClient(ctx, tokens.id_token);
    const plan = await user.expectStatus<Plan>(
      201,
      'POST',
      `/api/subscribers/${subscriber.id}/plans`,
      gift(mandate.id),
    );
    await user.expectStatus(200, 'PATCH', `/api/plans/${plan.id}`, { status: 'paused' });
    await user.expectStatus(200, 'GET', `/api/subscribers/${subscriber.id}/plans`);
    const anonymous = apiClient(ctx);
    expect((await anonymous.get(`/api/subscribers/${subscriber.id}/plans`)).status).toBe(401);
    expect((await anonymous.post(`/api/subscribers/${subscriber.id}/plans`, gift(mandate.id))).status).toBe(
      401,
    );
    expect((await anonymous.patch(`/api/plans/${plan.id}`, { status: 'ended' })).status).toBe(401);
  });
});
