import { addCalendarDays } from '@back-office/contract/calendar';
import type { CollectionSummary } from '@back-office/contract/collections';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator } from '../../../test/api.ts';
import { collectionFixtures, ICS, monthsAfter } from '../../../test/collections.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import { schemaErrors } from '../../../test/fixtures/iso20022/schemas.ts';
import { queryRows } from '../../db/client.ts';
import { monthsBefore } from '../mandates/mandates.service.ts';

const ctx = useTestApp();
const { configure, givePlan, dueAfter, today, build, detail, download } = collectionFixtures(ctx);

const DAY_MS = 86_400_000;

type Problem = { code: string; detail?: string; errors?: Array<{ path: string; message: string }> };

function leaf(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((match) => match[1] ?? '');
}

describe('SEPA direct-debit collections', () => {
  it('builds the draft of a due date from the plans of each frequency that have an installment that day', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    const monthly = await givePlan({ startOn: monthsBefore(due, 1), amount: '10.00' });
    const quarterly = await givePlan({
      startOn: monthsBefore(due, 3),
      frequency: 'quarterly',
      amount: '30.00',
    });
    const halfYearly = await givePlan({
      startOn: monthsBefore(due, 6),
      frequency: 'halfYearly',
      amount: '60.50',
    });
    const yearly = await givePlan({ startOn: monthsBefore(due, 12), frequency: 'yearly', amount: '120.00' });
    const startsToday = await givePlan({ startOn: due, amount: '5.00' });
    // No installment that day: the wrong month, the wrong day, paused, ended, revoked mandate.
    await givePlan({ startOn: monthsBefore(due, 1), frequency: 'quarterly' });
    await givePlan({ startOn: monthsBefore(due, 6), frequency: 'yearly' });
    await givePlan({ startOn: monthsBefore(due, 2), dayOfMonth: (Number(due.slice(8)) % 28) + 1 });
    await givePlan({ startOn: monthsBefore(due, 1), status: 'paused' });
    await givePlan({ startOn: monthsBefore(due, 3), endOn: monthsBefore(due, 1) });
    await givePlan({ startOn: monthsAfter(due, 1) });
    await givePlan({ startOn: monthsBefore(due, 1) }, { status: 'revoked' });

    const created = await build(api, due);
    expect(created).toEqual({
      id: expect.any(Number),
      dueDate: due,
      count: 5,
      total: 225.5,
      status: 'draft',
    });
    const read = await detail(api, created.id);
    expect(read.lines.map((line) => line.planId).sort((a, b) => a - b)).toEqual(
      [monthly, quarterly, halfYearly, yearly, startsToday].map((plan) => plan.planId),
    );
    expect(read.lines[0]).toEqual({
      id: expect.any(Number),
      planId: monthly.planId,
      subscriberId: monthly.subscriber.id,
      subscriberName: expect.stringContaining(monthly.subscriber.lastName),
      rum: monthly.rum,
      iban: '•••• 3000',
      amount: 10,
      sequenceType: 'FRST',
      endToEndId: `C${created.id}-P${monthly.planId}-${due.replaceAll('-', '')}`,
      status: 'pending',
    });

    // Building again returns the same draft (200), and adds a plan that qualifies since.
    expect(await build(api, due, 200)).toEqual(created);
    await givePlan({ startOn: monthsBefore(due, 2), amount: '7.00' });
    expect(await build(api, due, 200)).toMatchObject({ id: created.id, count: 6, total: 232.5 });
    const list = await api.expectStatus<CollectionSummary[]>(200, 'GET', '/api/collections');
    expect(list).toEqual([{ ...created, count: 6, total: 232.5 }]);
  });

  it('refuses a due date sooner than the pre-notification allows, and a missing creditor identifier', async () => {
    const api = await asAdministrator(ctx);
    await configure({ ics: '' });
    const setup = await api.post<Problem>('/api/collections', { dueDate: dueAfter(20) });
    expect(setup.status).toBe(409);
    expect(setup.body.errors?.[0]?.path).toBe('sepaCreditorId');

    await configure();
    const earliest = addCalendarDays(today(), 14);
    const soon = await api.post<Problem>('/api/collections', { dueDate: addCalendarDays(today(), 13) });
    expect(soon.status).toBe(409);
    expect(soon.body.code).toBe('collections.too_soon');
    expect(soon.body.errors).toEqual([{ path: 'dueDate', message: expect.stringContaining(earliest) }]);
    const bad = await api.post<Problem>('/api/collections', { dueDate: '2027-02-30' });
    expect(bad.status).toBe(400);
  });

  it('removes a line from a draft for good, and gives each mandate its sequence type', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    const first = await givePlan({ startOn: monthsBefore(due, 1) });
    const recurrent = await givePlan(
      { startOn: monthsBefore(due, 1) },
      { lastCollectedOn: monthsBefore(due, 1) },
    );
    const oneOff = await givePlan({ startOn: due }, { type: 'oneOff' });
    const created = await build(api, due);
    const lines = (await detail(api, created.id)).lines;
    const typeOf = (planId: number) => lines.find((line) => line.planId === planId)?.sequenceType;
    expect([typeOf(first.planId), typeOf(recurrent.planId), typeOf(oneOff.planId)]).toEqual([
      'FRST',
      'RCUR',
      'OOFF',
    ]);

    const removed = lines.find((line) => line.planId === first.planId);
    await api.expectStatus(204, 'DELETE', `/api/collections/${created.id}/lines/${removed?.id}`);
    expect(await build(api, due, 200)).toMatchObject({ count: 2 });
    expect((await detail(api, created.id)).lines.find((line) => line.id === removed?.id)?.status).toBe(
      'removed',
    );
    expect((await api.delete<Problem>(`/api/collections/${created.id}/lines/999999`)).status).toBe(404);

    // With first collections sent as recurrent, a new mandate's line is RCUR.
    await configure({ firstAsRecurring: true });
    const later = await givePlan({ startOn: monthsBefore(due, 1) });
    await build(api, due, 200);
    const again = (await detail(api, created.id)).lines.find((line) => line.planId === later.planId);
    expect(again?.sequenceType).toBe('RCUR');
  });

  it('exports a valid pain.008 once, locks the draft, notifies each debtor, then settles into donations', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    const anna = await givePlan({ startOn: monthsBefore(due, 1), amount: '25.00' }, {}, 'anna@example.org');
    const ben = await givePlan(
      { startOn: monthsBefore(due, 3), frequency: 'quarterly', amount: '40.10' },
      { lastCollectedOn: monthsBefore(due, 3), originalRum: 'OLD-RUM-0001' },
      'ben@example.org',
    );
    const revoked = await givePlan(
      { startOn: monthsBefore(due, 1), amount: '99.00' },
      {},
      'carl@example.org',
    );
    const created = await build(api, due);
    expect(created.count).toBe(3);
    // Revoked after the build: left out of the file, its line removed.
    await ctx.database.db.execute(
      sql`update mandates set status = 'revoked', revoked_on = ${today()}::date where id = ${revoked.mandateId}`,
    );

    // The other version of nothing yet: a bad version is a 400.
    expect(
      (await api.get<Problem>(`/api/collections/${created.id}/file?version=pain.008.001.99`)).status,
    ).toBe(400);

    const file = await download(api, created.id);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('application/xml');
    expect(file.headers['content-disposition']).toContain(`collection-${due}.xml`);
    const xml = file.raw.toString('utf8');
    expect(await schemaErrors(xml, 'pain.008.001.02.xsd')).toEqual([]);
    expect(leaf(xml, 'NbOfTxs')[0]).toBe('2');
    expect(leaf(xml, 'CtrlSum')[0]).toBe('65.10');
    expect(leaf(xml, 'ReqdColltnDt')).toEqual([due, due]);
    expect(leaf(xml, 'Id')).toContain(ICS);
    expect(leaf(xml, 'OrgnlMndtId')).toEqual(['OLD-RUM-0001']);
    expect(leaf(xml, 'Ustrd')).toContain("Don mensuel - Les Amis de l'Ecole");

    // The same bytes every time; the other version is refused; the lines are locked.
    const second = await download(api, created.id);
    expect(second.raw.equals(file.raw)).toBe(true);
    const other = await api.get<Problem>(`/api/collections/${created.id}/file?version=pain.008.001.08`);
    expect(other.status).toBe(409);
    expect(other.body.errors?.[0]?.path).toBe('version');
    const line = (await detail(api, created.id)).lines[0];
    const locked = await api.delete<Problem>(`/api/collections/${created.id}/lines/${line?.id}`);
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('collections.not_draft');
    const exported = await detail(api, created.id);
    expect(exported).toMatchObject({ status: 'exported', count: 2, fileVersion: 'pain.008.001.02' });
    expect(exported.lines.find((l) => l.planId === revoked.planId)?.status).toBe('removed');

    // The amendment went out once: the mandate forgot it, the next collection does not carry it.
    const [mandate] = await queryRows<{ original_rum: string | null; amended_on: string | null }>(
      ctx.database.db,
      sql`select original_rum, amended_on from mandates where id = ${ben.mandateId}`,
    );
    expect(mandate).toEqual({ original_rum: null, amended_on: null });

    // One pre-notification per debtor, in French, with the amount, the due date, the RUM and the ICS.
    const mails = await queryRows<{ to_address: string; subject: string; text_body: string }>(
      ctx.database.db,
      sql`select to_address, subject, text_body from outbox_messages order by to_address`,
    );
    expect(mails.map((mail) => mail.to_address)).toEqual(['anna@example.org', 'ben@example.org']);
    expect(mails[0]?.text_body).toContain('25,00');
    expect(mails[0]?.text_body).toContain(anna.rum);
    expect(mails[0]?.text_body).toContain(ICS);
    expect(mails[1]?.text_body).toContain('40,10');
    expect(mails[0]?.subject).toMatch(/Prélèvement SEPA du \d+(er)? \S+ \d{4}/);

    // Settlement: a donation per line, the mandates' last collection, once only.
    const settled = await api.expectStatus<CollectionSummary>(
      200,
      'POST',
      `/api/collections/${created.id}/settle`,
    );
    expect(settled).toMatchObject({ status: 'settled', count: 2, total: 65.1 });
    const donations = await queryRows<{
      subscriber_id: number;
      amount: string;
      donation_date: string;
      notes: string;
      iso: string;
    }>(
      ctx.database.db,
      sql`select d.subscriber_id, d.amount::text as amount, to_char(d.donation_date, 'YYYY-MM-DD') as donation_date,
          d.notes, c.iso_code as iso
        from donations d join currencies c on c.id = d.currency_id order by d.amount`,
    );
    expect(donations).toEqual([
      {
        subscriber_id: anna.subscriber.id,
        amount: '25.00',
        donation_date: due,
        notes: `Prélèvement SEPA ${anna.rum}`,
        iso: 'EUR',
      },
      {
        subscriber_id: ben.subscriber.id,
        amount: '40.10',
        donation_date: due,
        notes: `Prélèvement SEPA ${ben.rum}`,
        iso: 'EUR',
      },
    ]);
    const used = await queryRows<{ last: string }>(
      ctx.database.db,
      sql`select to_char(last_collected_on, 'YYYY-MM-DD') as last from mandates where id in (${anna.mandateId}, ${ben.mandateId})`,
    );
    expect(used).toEqual([{ last: due }, { last: due }]);
    expect((await detail(api, created.id)).lines.map((l) => [l.status, typeof l.donationId])).toEqual([
      ['collected', 'number'],
      ['collected', 'number'],
      ['removed', 'undefined'],
    ]);
    const twice = await api.post<Problem>(`/api/collections/${created.id}/settle`);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('collections.settled');
    expect((await download(api, created.id)).raw.equals(file.raw)).toBe(true);

    // The next collection of Ben's plan: RCUR without the amendment.
    const next = monthsAfter(due, 3);
    const nextCollection = await build(api, next);
    const nextXml = (await download(api, nextCollection.id)).raw.toString('utf8');
    expect(leaf(nextXml, 'OrgnlMndtId')).toEqual([]);
    expect(leaf(nextXml, 'SeqTp')).toEqual(['RCUR']);
  });

  it('refuses to export too late for the pre-notification, and to settle a draft', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    await givePlan({ startOn: monthsBefore(due, 1) });
    const created = await build(api, due);
    const draft = await api.post<Problem>(`/api/collections/${created.id}/settle`);
    expect(draft.status).toBe(409);
    expect(draft.body.code).toBe('collections.not_exported');
    ctx.clock.advance(10 * DAY_MS);
    const late = await download(await asAdministrator(ctx), created.id);
    expect(late.status).toBe(409);
    expect((late.body as unknown as Problem).code).toBe('collections.too_late');
    expect((late.body as unknown as Problem).detail).toContain(addCalendarDays(due, -14));
    expect((await (await asAdministrator(ctx)).get<Problem>('/api/collections/999999')).status).toBe(404);
  });

  it('gives one draft to two builds of the same due date at the same time', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    for (let index = 0; index < 5; index += 1) await givePlan({ startOn: monthsBefore(due, 1) });
    const answers = await Promise.all([
      api.post<CollectionSummary>('/api/collections', { dueDate: due }),
      api.post<CollectionSummary>('/api/collections', { dueDate: due }),
      api.post<CollectionSummary>('/api/collections', { dueDate: due }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.map((answer) => answer.body.count)).toEqual([5, 5, 5]);
    const [lines] = await queryRows<{ count: number }>(
      ctx.database.db,
      sql`select count(*)::int as count from collection_lines`,
    );
    expect(lines?.count).toBe(5);
  });

  it('is for Administrators only', async () => {
    await configure();
    const user = await createSignedInUser(ctx);
    const asUser = apiClient(ctx, user.tokens.id_token);
    expect((await asUser.post('/api/collections', { dueDate: dueAfter(20) })).status).toBe(403);
    expect((await asUser.get('/api/collections')).status).toBe(403);
    const anonymous = apiClient(ctx);
    expect((await anonymous.get('/api/collections')).status).toBe(401);
    expect((await anonymous.post('/api/collections', { dueDate: dueAfter(20) })).status).toBe(401);
  });
});
