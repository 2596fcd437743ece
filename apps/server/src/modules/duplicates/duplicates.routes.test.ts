import type { DuplicateMatch, DuplicatePairs, SubscriberMerge } from '@back-office/contract/duplicates';
import type { Subscriber } from '@back-office/contract/subscribers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator } from '../../../test/api.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertDonation, insertSubscribers } from '../../../test/factories.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();
const DAY_MS = 86_400_000;

describe('likely duplicates of a subscriber being written', () => {
  it('finds the same email in any case, the same IBAN, and a similar name at the same postcode or town', async () => {
    const api = await asAdministrator(ctx);
    const [jean] = await insertSubscribers(ctx, [
      buildSubscriber({
        firstName: 'Jean',
        lastName: 'Dupont',
        email: 'jean.dupont@example.org',
        iban: 'FR7630006000011234567890189',
        postcode: '69001',
        town: 'Lyon',
      }),
      buildSubscriber({ firstName: 'Zoé', lastName: 'Müller', postcode: '1204', town: 'Genève' }),
    ]);
    const check = (body: object) =>
      api.expectStatus<DuplicateMatch[]>(200, 'POST', '/api/subscribers/duplicates/check', body);

    expect(await check({ email: 'JEAN.DUPONT@example.org' })).toMatchObject([
      { id: jean?.id, reasons: ['email'] },
    ]);
    expect(await check({ iban: 'fr76 3000 6000 0112 3456 7890 189' })).toMatchObject([
      { id: jean?.id, reasons: ['iban'] },
    ]);
    expect(await check({ firstName: 'Jean', lastName: 'Dupond', postcode: '69001' })).toMatchObject([
      { id: jean?.id, name: expect.stringContaining('Jean Dupont'), reasons: ['name+postcode'] },
    ]);
    expect(await check({ firstName: 'jean', lastName: 'DUPONT', town: 'lyon' })).toMatchObject([
      { id: jean?.id, reasons: ['name+town'] },
    ]);
    // Not the record being edited, and not someone else of the same town.
    expect(await check({ email: 'jean.dupont@example.org', excludeId: jean?.id })).toEqual([]);
    expect(await check({ firstName: 'Paul', lastName: 'Martin', town: 'Lyon' })).toEqual([]);
  });
});

describe('scan of the register', () => {
  it('pairs subscribers by email, IBAN, phone and similar name at the same postcode, best first', async () => {
    const api = await asAdministrator(ctx);
    const [a, b, c, d, e, f] = await insertSubscribers(ctx, [
      buildSubscriber({
        title: '',
        firstName: 'Anne',
        lastName: 'Roux',
        email: 'anne@example.org',
        phone: '+33 6 12 34 56 78',
      }),
      buildSubscriber({
        firstName: 'Anne',
        lastName: 'Roux',
        email: 'ANNE@example.org',
        mobile: '06 12 34 56 78',
      }),
      buildSubscriber({
        firstName: 'Bruno',
        lastName: 'Perret',
        iban: 'CH9300762011623852957',
        postcode: '1003',
      }),
      buildSubscriber({
        firstName: 'Bruno',
        lastName: 'Peret',
        iban: 'CH9300762011623852957',
        postcode: '1003',
      }),
      buildSubscriber({ firstName: 'Chloé', lastName: 'Fontaine', postcode: '74000' }),
      buildSubscriber({ firstName: 'Chloe', lastName: 'Fontaines', postcode: '74000' }),
    ]);
    // A mailbox shared by 21 people is not a sign of a duplicate.
    await insertSubscribers(
      ctx,
      Array.from({ length: 21 }, () => buildSubscriber({ email: 'secretariat@example.org' })),
    );
    const before = await api.expectStatus<DuplicatePairs>(200, 'GET', '/api/subscribers/duplicates');
    expect(before).toMatchObject({ count: 0, scannedAt: null, scanning: false });

    await api.expectStatus(202, 'POST', '/api/subscribers/duplicates/scan');
    expect((await api.expectStatus<DuplicatePairs>(200, 'GET', '/api/subscribers/duplicates')).scanning).toBe(
      true,
    );
    await ctx.app.jobs.runDue();

    const found = await api.expectStatus<DuplicatePairs>(200, 'GET', '/api/subscribers/duplicates');
    expect(found.scanning).toBe(false);
    expect(found.scannedAt).not.toBeNull();
    const pairs = found.models.map((pair) => [pair.aId, pair.bId, [...pair.reasons].sort()]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        [a?.id, b?.id, ['email', 'phone']],
        [c?.id, d?.id, ['iban', 'name+postcode']],
        [e?.id, f?.id, ['name+postcode']],
      ]),
    );
    expect(found.count).toBe(3);
    expect(found.models[0]?.score).toBeGreaterThan(found.models[2]?.score ?? 1);
    expect(found.models.find((pair) => pair.aId === e?.id)?.bName).toContain('Fontaines');

    const page = await api.expectStatus<DuplicatePairs>(
      200,
      'GET',
      '/api/subscribers/duplicates?listfrom=3&listlength=1',
    );
    expect(page.models).toHaveLength(1);
    expect(page.count).toBe(3);
  });
});

describe('merge of two subscribers', () => {
  async function twoOfTheSame() {
    const api = await asAdministrator(ctx);
    await api.expectStatus(201, 'POST', '/api/tags', { name: 'Bénévole' });
    await api.expectStatus(201, 'POST', '/api/tags', { name: 'Donateur' });
    const [keep, merge] = await insertSubscribers(ctx, [
      buildSubscriber({
        title: '',
        firstName: 'Anne',
        lastName: 'Roux',
        email: 'anne@example.org',
        town: 'Lyon',
        tags: ['Bénévole'],
      }),
      buildSubscriber({
        title: '',
        firstName: 'Anne',
        lastName: 'Roux',
        email: 'anne.roux@example.org',
        town: 'Lyon',
        tags: ['Donateur'],
      }),
    ]);
    if (!keep || !merge) throw new Error('subscribers not created');
    await insertDonation(ctx, keep.id, { amount: 10 });
    await insertDonation(ctx, merge.id, { amount: 20 });
    await insertDonation(ctx, merge.id, { amount: 30 });
    return { api, keep, merge };
  }

  const donationsOf = async (api: Awaited<ReturnType<typeof asAdministrator>>, id: number) =>
    (
      await api.expectStatus<{ models: Array<{ amount: number }> }>(200, 'GET', `/api/donations?id=${id}`)
    ).models
      .map((donation) => donation.amount)
      .sort((x, y) => x - y);

  it('moves donations, tags and history to the kept one, takes the chosen fields, hides the other, and undoes it', async () => {
    const { api, keep, merge } = await twoOfTheSame();
    const mandate = await api.expectStatus<{ id: number }>(
      201,
      'POST',
      `/api/subscribers/${merge.id}/mandates`,
      {
        rum: 'RUM-ANNE-ROUX',
        iban: 'FR7630006000011234567890189',
        signedOn: '2024-01-10',
        type: 'recurring',
      },
    );
    const mandatesOf = async (id: number) =>
      (await api.expectStatus<Array<{ id: number }>>(200, 'GET', `/api/subscribers/${id}/mandates`)).map(
        (found) => found.id,
      );
    const merged = await api.expectStatus<SubscriberMerge>(200, 'POST', '/api/subscribers/merge', {
      keepId: keep.id,
      mergeId: merge.id,
      fields: { email: 'merge' },
    });
    expect(merged).toMatchObject({ keepId: keep.id, mergeId: merge.id, moved: { donations: 2, tags: 1 } });

    const kept = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${keep.id}`);
    expect(kept).toMatchObject({ email: 'anne.roux@example.org', tags: ['Bénévole', 'Donateur'] });
    expect(await donationsOf(api, keep.id)).toEqual([10, 20, 30]);
    // The merged subscriber's mandate now debits for the kept one.
    expect(await mandatesOf(keep.id)).toEqual([mandate.id]);
    const history = await api.expectStatus<Array<{ description: string }>>(
      200,
      'GET',
      `/api/subscribers/${keep.id}/history`,
    );
    expect(history[0]?.description).toBe(
      `Merged with Anne Roux (${merge.id}): 2 donations, 0 sales and 0 receipts moved here.`,
    );
    // The merged subscriber's history came along (its creation), after the kept one's own.
    expect(history.filter((entry) => entry.description === 'Subscriber Anne Roux created.')).toHaveLength(2);

    // The merged subscriber's old id leads to the kept one.
    const old = await api.send('GET', `/api/subscribers/${merge.id}`);
    expect(old.status).toBe(308);
    expect(old.headers.location).toBe(`/api/subscribers/${keep.id}`);

    const undone = await api.expectStatus<SubscriberMerge>(
      200,
      'POST',
      `/api/subscribers/merge/${merge.id}/undo`,
    );
    expect(undone.undoneAt).not.toBeNull();
    expect(await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${keep.id}`)).toMatchObject({
      email: 'anne@example.org',
      tags: ['Bénévole'],
    });
    expect(await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${merge.id}`)).toMatchObject({
      email: 'anne.roux@example.org',
      tags: ['Donateur'],
      hidden: false,
    });
    expect(await donationsOf(api, keep.id)).toEqual([10]);
    expect(await donationsOf(api, merge.id)).toEqual([20, 30]);
    expect(await mandatesOf(keep.id)).toEqual([]);
    expect(await mandatesOf(merge.id)).toEqual([mandate.id]);
    expect((await api.send('POST', `/api/subscribers/merge/${merge.id}/undo`)).status).toBe(404);
  });

  it('unsubscribes the kept one from bulk emails when the merged one had unsubscribed, and undoes it', async () => {
    const { api, keep, merge } = await twoOfTheSame();
    await ctx.database.db.execute(
      sql`insert into subscriber_email_opt_outs (subscriber_id) values (${merge.id})`,
    );
    await ctx.database.db.execute(
      sql`update subscribers set on_mail_chimp_list = false where id = ${merge.id}`,
    );
    await ctx.database.db.execute(
      sql`update subscribers set on_mail_chimp_list = true where id = ${keep.id}`,
    );
    const optedOut = async (id: number) =>
      (
        await queryRows<{ n: number }>(
          ctx.database.db,
          sql`select count(*)::int as n from subscriber_email_opt_outs where subscriber_id = ${id}`,
        )
      )[0]?.n;

    await api.expectStatus(200, 'POST', '/api/subscribers/merge', { keepId: keep.id, mergeId: merge.id });
    expect(await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${keep.id}`)).toMatchObject({
      onMailChimpList: false,
    });
    expect(await optedOut(keep.id)).toBe(1);
    const history = await api.expectStatus<Array<{ description: string }>>(
      200,
      'GET',
      `/api/subscribers/${keep.id}/history`,
    );
    expect(history[0]?.description).toContain(
      'The merged record had unsubscribed from bulk emails: so has this one.',
    );

    await api.expectStatus(200, 'POST', `/api/subscribers/merge/${merge.id}/undo`);
    expect(await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${keep.id}`)).toMatchObject({
      onMailChimpList: true,
    });
    expect(await optedOut(keep.id)).toBe(0);
    expect(await optedOut(merge.id)).toBe(1);
  });

  it('refuses to undo after 30 days, or once the kept record changed, with 409', async () => {
    const { api, keep, merge } = await twoOfTheSame();
    await api.expectStatus(200, 'POST', '/api/subscribers/merge', { keepId: keep.id, mergeId: merge.id });
    const kept = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${keep.id}`);
    await api.expectStatus(200, 'PATCH', `/api/subscribers/${keep.id}`, { ...kept, town: 'Nantes' });
    const changed = await api.send<{ detail: string }>('POST', `/api/subscribers/merge/${merge.id}/undo`);
    expect(changed.status).toBe(409);
    expect(changed.body.detail).toContain('changed since the merge');

    const [other, again] = await insertSubscribers(ctx, [buildSubscriber(), buildSubscriber()]);
    await api.expectStatus(200, 'POST', '/api/subscribers/merge', { keepId: other?.id, mergeId: again?.id });
    ctx.clock.advance(31 * DAY_MS);
    const late = await (await asAdministrator(ctx)).send<{ detail: string }>(
      'POST',
      `/api/subscribers/merge/${again?.id}/undo`,
    );
    expect(late.status).toBe(409);
    expect(late.body.detail).toContain('more than 30 days');
  });

  it('refuses the same subscriber twice (400), an unknown or merged one (404), and non-Administrators (403)', async () => {
    const { api, keep, merge } = await twoOfTheSame();
    const same = await api.send<{ errors: unknown }>('POST', '/api/subscribers/merge', {
      keepId: keep.id,
      mergeId: keep.id,
    });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual([{ path: 'mergeId', message: 'Choose two different subscribers.' }]);
    expect(
      (await api.send('POST', '/api/subscribers/merge', { keepId: keep.id, mergeId: 999_999 })).status,
    ).toBe(404);
    await api.expectStatus(200, 'POST', '/api/subscribers/merge', { keepId: keep.id, mergeId: merge.id });
    expect(
      (await api.send('POST', '/api/subscribers/merge', { keepId: keep.id, mergeId: merge.id })).status,
    ).toBe(404);

    const { tokens } = await createSignedInUser(ctx, { role: 'User' });
    const user = apiClient(ctx, tokens.id_token);
    expect((await user.send('POST', '/api/subscribers/merge', { keepId: 1, mergeId: 2 })).status).toBe(403);
    expect((await user.send('GET', '/api/subscribers/duplicates')).status).toBe(403);
    expect(
      (await user.send('POST', '/api/subscribers/duplicates/check', { email: 'x@example.org' })).status,
    ).toBe(200);
  });
});
