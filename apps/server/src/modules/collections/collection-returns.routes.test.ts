/**
 * `POST /api/collections/returns` (docs/decisions/030; EPC SEPA Core Direct Debit rulebook,
 * R-transactions): a bank's camt.054 returns and pain.002 rejections applied to the collections'
 * lines, their donations and their mandates, once only.
 */
import type { CollectionReturnsResult, CollectionSummary } from '@back-office/contract/collections';
import type { Mandate } from '@back-office/contract/mandates';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asAdministrator, type TestApi } from '../../../test/api.ts';
import { collectionFixtures, monthsAfter } from '../../../test/collections.ts';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import {
  camt054Returns,
  pain002Rejections,
  type ReturnedDebit,
} from '../../../test/fixtures/iso20022/return-files.ts';
import { schemaErrors } from '../../../test/fixtures/iso20022/schemas.ts';
import { multipart } from '../../../test/imports.ts';
import { queryRows } from '../../db/client.ts';
import { monthsBefore } from '../mandates/mandates.service.ts';

const ctx = useTestApp();
const { configure, givePlan, dueAfter, build, detail, download } = collectionFixtures(ctx);

const DAY_MS = 86_400_000;

async function sendReturns(xml: string, token?: string) {
  const idToken = token ?? (await login(ctx)).id_token;
  const body = multipart({}, { name: 'returns.xml', bytes: Buffer.from(xml, 'utf8') });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/collections/returns',
    headers: { ...bearer(idToken), 'content-type': body.contentType },
    payload: body.payload,
  });
}

async function applied(xml: string): Promise<CollectionReturnsResult> {
  const response = await sendReturns(xml);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CollectionReturnsResult>();
}

/** Builds, exports and (unless `settle` is false) settles the collection of `due`. */
async function collect(api: TestApi, due: string, { settle = true } = {}) {
  const created = await api.expectStatus<CollectionSummary>(201, 'POST', '/api/collections', {
    dueDate: due,
  });
  expect((await download(api, created.id, 'pain.008.001.08')).status).toBe(200);
  if (settle) await api.expectStatus(200, 'POST', `/api/collections/${created.id}/settle`);
  return detail(api, created.id);
}

const mandateOf = async (api: TestApi, subscriberId: number, mandateId: number) =>
  (await api.expectStatus<Mandate[]>(200, 'GET', `/api/subscribers/${subscriberId}/mandates`)).find(
    (mandate) => mandate.id === mandateId,
  );

const donationCount = async (subscriberId: number) =>
  (
    await queryRows<{ count: number }>(
      ctx.database.db,
      sql`select count(*)::int as count from donations where subscriber_id = ${subscriberId}`,
    )
  )[0]?.count;

const history = (subscriberId: number) =>
  queryRows<{ description: string }>(
    ctx.database.db,
    sql`select description from subscriber_history where subscriber_id = ${subscriberId} order by id`,
  );

const returnOf = (endToEndId: string, code: string, amount = '25.00'): ReturnedDebit => ({
  endToEndId,
  code,
  amount,
});

describe('Direct-debit returns', () => {
  it('cancels the donation of a returned debit, once, and suspends the mandate at its second return', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    const anna = await givePlan({ startOn: monthsBefore(due, 1) });
    const ben = await givePlan({ startOn: monthsBefore(due, 1), amount: '40.00' });
    const first = await collect(api, due);
    const annaLine = first.lines.find((line) => line.subscriberId === anna.subscriber.id);
    const benLine = first.lines.find((line) => line.subscriberId === ben.subscriber.id);
    expect(annaLine?.endToEndId).toMatch(/^C\d+-P\d+-\d{8}$/);
    expect(await donationCount(anna.subscriber.id)).toBe(1);

    const file = camt054Returns([returnOf(annaLine?.endToEndId ?? '', 'AM04')]);
    expect(await schemaErrors(file, 'camt.054.001.08.xsd')).toEqual([]);
    const result = await applied(file);
    expect(result).toEqual({
      applied: 1,
      alreadyApplied: 0,
      notSent: 0,
      unknown: 0,
      lines: [
        {
          endToEndId: annaLine?.endToEndId,
          status: 'returned',
          reasonCode: 'AM04',
          outcome: 'applied',
          collectionId: first.id,
          lineId: annaLine?.id,
          subscriberId: anna.subscriber.id,
          subscriberName: annaLine?.subscriberName,
          rum: anna.rum,
          amount: 25,
          donation: 'cancelled',
        },
      ],
    });
    expect(await donationCount(anna.subscriber.id)).toBe(0);
    expect(await donationCount(ben.subscriber.id)).toBe(1);
    const after = await detail(api, first.id);
    expect(after.lines.find((line) => line.id === annaLine?.id)).toMatchObject({
      status: 'returned',
      reasonCode: 'AM04',
    });
    expect(after.lines.find((line) => line.id === benLine?.id)?.status).toBe('collected');
    expect(after).toMatchObject({ status: 'settled', count: 2 });
    // One AM04 (insufficient funds) may be retried: the mandate stays active.
    expect((await mandateOf(api, anna.subscriber.id, anna.mandateId))?.status).toBe('active');
    const told = (await history(anna.subscriber.id)).map((line) => line.description);
    expect(told).toContain(
      `Direct debit of 25,00 € due ${due} (mandate ${anna.rum}) returned by the bank: AM04 (Insufficient funds).`,
    );
    expect(
      told.some(
        (line) =>
          line.startsWith('Donation of 25,00 €') &&
          line.includes('deleted as its direct debit was returned by the bank: AM04'),
      ),
    ).toBe(true);

    // The same file again changes nothing.
    const historyBefore = told.length;
    const again = await applied(file);
    expect(again).toMatchObject({ applied: 0, alreadyApplied: 1, lines: [{ outcome: 'alreadyApplied' }] });
    expect((await history(anna.subscriber.id)).length).toBe(historyBefore);
    expect(await donationCount(ben.subscriber.id)).toBe(1);

    // The next month's collection of the same mandate is returned too: the mandate is suspended.
    const nextDue = monthsAfter(due, 1);
    const second = await collect(api, nextDue);
    const annaNext = second.lines.find((line) => line.subscriberId === anna.subscriber.id);
    expect(annaNext?.sequenceType).toBe('RCUR');
    const suspended = await applied(camt054Returns([returnOf(annaNext?.endToEndId ?? '', 'MS02')]));
    expect(suspended.lines[0]).toMatchObject({
      outcome: 'applied',
      mandateSuspended: true,
      donation: 'cancelled',
    });
    const mandate = await mandateOf(api, anna.subscriber.id, anna.mandateId);
    expect(mandate).toMatchObject({
      status: 'suspended',
      suspendedReason: `2 direct debits returned or rejected by the bank, the last due ${nextDue}: MS02 (Refused by the debtor).`,
    });
    expect(mandate?.suspendedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A suspended mandate is no longer collected, nor shown on the subscriber's record.
    const third = await collect(api, monthsAfter(due, 2), { settle: false });
    expect(third.lines.map((line) => line.subscriberId)).toEqual([ben.subscriber.id]);
    const [record] = await queryRows<{ rum: string }>(
      ctx.database.db,
      sql`select rum from subscribers where id = ${anna.subscriber.id}`,
    );
    expect(record?.rum).toBe('');
    // It can still be revoked.
    await api.expectStatus(200, 'POST', `/api/mandates/${anna.mandateId}/revoke`, {
      reason: 'Donor stopped',
    });
  });

  it.each(['MD01', 'AC04', 'AC06', 'MD07'])(
    'suspends the mandate at the first return with reason %s',
    async (code) => {
      await configure();
      const api = await asAdministrator(ctx);
      const due = dueAfter(20);
      const donor = await givePlan({ startOn: monthsBefore(due, 1) });
      const other = await givePlan({ startOn: monthsBefore(due, 1) });
      const collection = await collect(api, due);
      const line = collection.lines.find((entry) => entry.subscriberId === donor.subscriber.id);
      const result = await applied(camt054Returns([returnOf(line?.endToEndId ?? '', code)]));
      expect(result.lines[0]).toMatchObject({ outcome: 'applied', reasonCode: code, mandateSuspended: true });
      const mandate = await mandateOf(api, donor.subscriber.id, donor.mandateId);
      expect(mandate?.status).toBe('suspended');
      expect(mandate?.suspendedReason).toBe(
        `the bank returned the direct debit due ${due}: ${code} (${
          {
            MD01: 'No valid mandate',
            AC04: 'Account closed',
            AC06: 'Account blocked',
            MD07: 'Debtor deceased',
          }[code]
        }).`,
      );
      expect((await mandateOf(api, other.subscriber.id, other.mandateId))?.status).toBe('active');
      expect((await history(donor.subscriber.id)).map((entry) => entry.description)).toContain(
        `Mandate ${donor.rum} suspended: ${mandate?.suspendedReason}`,
      );
    },
  );

  it('marks a rejection before settlement, which then records no donation; the next debit is a first one again', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    const donor = await givePlan({ startOn: due });
    const other = await givePlan({ startOn: due });
    const collection = await collect(api, due, { settle: false });
    const line = collection.lines.find((entry) => entry.subscriberId === donor.subscriber.id);
    expect(line?.sequenceType).toBe('FRST');
    const [stored] = await queryRows<{ message_id: string }>(
      ctx.database.db,
      sql`select message_id from collections where id = ${collection.id}`,
    );
    const result = await applied(
      pain002Rejections(stored?.message_id ?? '', [returnOf(line?.endToEndId ?? '', 'AM04')]),
    );
    expect(result.lines[0]).toMatchObject({ status: 'rejected', outcome: 'applied', reasonCode: 'AM04' });
    expect(result.lines[0]?.donation).toBeUndefined();
    await api.expectStatus(200, 'POST', `/api/collections/${collection.id}/settle`);
    expect(await donationCount(donor.subscriber.id)).toBe(0);
    expect(await donationCount(other.subscriber.id)).toBe(1);
    const after = await detail(api, collection.id);
    expect(after.lines.find((entry) => entry.id === line?.id)).toMatchObject({
      status: 'rejected',
      reasonCode: 'AM04',
    });
    expect((await mandateOf(api, donor.subscriber.id, donor.mandateId))?.lastCollectedOn).toBeUndefined();
    const next = await collect(api, monthsAfter(due, 1), { settle: false });
    expect(next.lines.find((entry) => entry.subscriberId === donor.subscriber.id)?.sequenceType).toBe('FRST');
    expect(next.lines.find((entry) => entry.subscriberId === other.subscriber.id)?.sequenceType).toBe('RCUR');
  });

  it('keeps a receipted donation and says its receipt should be cancelled', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    const donor = await givePlan({ startOn: monthsBefore(due, 1) });
    const collection = await collect(api, due);
    const line = collection.lines[0];
    // The gift is dated the due date: the receipt is issued once that day has come.
    ctx.clock.advance(25 * DAY_MS);
    const receipt = await ctx.app.inject({
      url: `/api/donations/receipt/${line?.donationId}`,
      headers: bearer((await login(ctx)).id_token),
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    const [issued] = await queryRows<{ number: number }>(
      ctx.database.db,
      sql`select r.number from receipts r join donations d on d.receipt_id = r.id where d.id = ${line?.donationId ?? 0}`,
    );

    const result = await applied(camt054Returns([returnOf(line?.endToEndId ?? '', 'MD06')]));
    expect(result.lines[0]).toMatchObject({
      outcome: 'applied',
      donation: 'receipted',
      receiptNumber: issued?.number,
    });
    expect(await donationCount(donor.subscriber.id)).toBe(1);
    expect((await history(donor.subscriber.id)).map((entry) => entry.description)).toContain(
      `Tax receipt n° ${issued?.number} covers the gift of 25,00 € dated ${due}, whose direct debit was returned by the bank (MD06 (Refund requested by the debtor)): the receipt should be cancelled.`,
    );
  });

  it('tells unknown and never-sent transactions apart, and changes nothing for them', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    await givePlan({ startOn: monthsBefore(due, 1) });
    const draft = await build(api, due);
    const [line] = (await detail(api, draft.id)).lines;
    const result = await applied(
      camt054Returns([returnOf('SOMEONE-ELSE-1', 'AM04'), returnOf(line?.endToEndId ?? '', 'AC04')]),
    );
    expect(result).toMatchObject({
      applied: 0,
      alreadyApplied: 0,
      notSent: 1,
      unknown: 1,
      lines: [
        { endToEndId: 'SOMEONE-ELSE-1', outcome: 'unknown' },
        { endToEndId: line?.endToEndId, outcome: 'notSent', collectionId: draft.id },
      ],
    });
    expect(result.lines[0]?.collectionId).toBeUndefined();
    expect((await detail(api, draft.id)).lines[0]?.status).toBe('pending');
  });

  it('applies a file sent twice at once only once', async () => {
    await configure();
    const api = await asAdministrator(ctx);
    const due = dueAfter(20);
    const donor = await givePlan({ startOn: monthsBefore(due, 1) });
    const collection = await collect(api, due);
    const file = camt054Returns([returnOf(collection.lines[0]?.endToEndId ?? '', 'AM04')]);
    const token = (await login(ctx)).id_token;
    const [one, two] = await Promise.all([sendReturns(file, token), sendReturns(file, token)]);
    const results = [one.json<CollectionReturnsResult>(), two.json<CollectionReturnsResult>()];
    expect(results.map((entry) => entry.applied).sort()).toEqual([0, 1]);
    expect(results.map((entry) => entry.alreadyApplied).sort()).toEqual([0, 1]);
    expect(await donationCount(donor.subscriber.id)).toBe(0);
  });

  it('refuses what is not a return file with a 400 naming the problem', async () => {
    const notXml = await sendReturns('this is not XML');
    expect(notXml.statusCode).toBe(400);
    expect(notXml.json()).toMatchObject({
      code: 'direct_debit.invalid_return_file',
      detail: expect.stringContaining('not well-formed XML'),
    });
    const pain008 = await sendReturns(
      '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.008.001.08"><CstmrDrctDbtInitn/></Document>',
    );
    expect(pain008.statusCode).toBe(400);
    expect(pain008.json<{ detail: string }>().detail).toContain('unsupported message');
    const token = (await login(ctx)).id_token;
    const fieldOnly = multipart({ note: 'x' });
    const noFile = await ctx.app.inject({
      method: 'POST',
      url: '/api/collections/returns',
      headers: { ...bearer(token), 'content-type': fieldOnly.contentType },
      payload: fieldOnly.payload,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ errors: [{ path: 'file', message: 'Choose a file.' }] });
  });
});
