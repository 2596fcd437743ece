import type { Job } from '@back-office/contract/jobs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

/**
 * An app whose background jobs the test runs by hand: `work(shouldStop)` runs the due jobs as a server
 * process would (stopping as at a shutdown when `shouldStop()` says so) and resolves with how many
 * donors they handled.
 */
async function appWithWork() {
  const app = await ctx.build();
  const handledDonors = async () =>
    (
      await queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from annual_run_items where status <> 'pending'`,
      )
    )[0]?.n ?? 0;
  const work = async (shouldStop?: () => boolean) => {
    const before = await handledDonors();
    await app.jobs.runDue({ shouldStop });
    return (await handledDonors()) - before;
  };
  return { app, work };
}

describe('annual receipt run', () => {
  it('emails each donor with an email once, gathers the others for printing, and shows progress', async () => {
    const { app, work } = await appWithWork();
    const headers = bearer((await login(ctx)).id_token);
    const [zoe, hans, marc] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Martin' }),
      buildSubscriber({ lastName: 'Müller', email: '', currencyId: 2, countryId: 2 }),
      buildSubscriber({ lastName: 'Durand' }),
    ]);
    const donate = (subid: number, amount: number, donationDate: string) =>
      app.inject({
        method: 'POST',
        url: '/api/donations',
        headers,
        payload: { subid, amount, donationDate },
      });
    await donate(zoe?.id ?? 0, 10, '2025-01-10');
    await donate(zoe?.id ?? 0, 15, '2025-05-10');
    await donate(hans?.id ?? 0, 20, '2025-03-03');
    await donate(marc?.id ?? 0, 30, '2024-12-31');

    const started = await app.inject({
      method: 'POST',
      url: '/api/donations/annual-runs',
      headers,
      payload: { year: 2025 },
    });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ year: 2025, status: 'running', total: 2, pending: 2 });
    const again = await app.inject({
      method: 'POST',
      url: '/api/donations/annual-runs',
      headers,
      payload: { year: 2025 },
    });
    expect(again.statusCode).toBe(409);

    expect(await work(() => false)).toBe(2);
    const done = (
      await app.inject({ url: `/api/donations/annual-runs/${started.json().id}`, headers })
    ).json();
    expect(done).toMatchObject({ status: 'done', total: 2, pending: 0, emailed: 1, toPrint: 1, failed: 0 });

    await ctx.worker.runOnce();
    expect(ctx.transport.sent.map((message) => [message.toAddress, message.subject])).toEqual([
      [zoe?.email, 'Reçu fiscal 2025'],
    ]);
    const attached = await pdfPages(
      Buffer.from(ctx.transport.sent[0]?.attachments[0]?.contentBase64 ?? '', 'base64'),
    );
    expect(attached[0]).toContain('25,00 €');

    const print = await app.inject({ url: `/api/donations/annual-runs/${started.json().id}/print`, headers });
    expect(print.statusCode).toBe(200);
    expect(print.headers['content-disposition']).toContain('annual-receipts-2025-to-print.pdf');
    const printed = await pdfPages(print.rawPayload);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('MÜLLER');
    expect(printed[0]).toContain('20,00 CHF');

    // Running the work again sends nobody a second copy.
    expect(await work(() => false)).toBe(0);
    await ctx.worker.runOnce();
    expect(ctx.transport.sent).toHaveLength(1);
  });

  it('survives a stop part-way: what was done stays done, the rest is done after the restart', async () => {
    const { app, work } = await appWithWork();
    const headers = bearer((await login(ctx)).id_token);
    const donors = await insertSubscribers(
      ctx,
      Array.from({ length: 5 }, (_, index) => buildSubscriber({ lastName: `Donateur${index}` })),
    );
    for (const donor of donors) {
      await app.inject({
        method: 'POST',
        url: '/api/donations',
        headers,
        payload: { subid: donor.id, amount: 5, donationDate: '2025-06-01' },
      });
    }
    const run = (
      await app.inject({
        method: 'POST',
        url: '/api/donations/annual-runs',
        headers,
        payload: { year: 2025 },
      })
    ).json();
    let calls = 0;
    expect(await work(() => ++calls > 2)).toBe(2);
    expect((await app.inject({ url: `/api/donations/annual-runs/${run.id}`, headers })).json()).toMatchObject(
      {
        status: 'running',
        emailed: 2,
        pending: 3,
      },
    );
    // The Jobs screen shows the run's job handed back, with its progress.
    const jobs = (await app.inject({ url: '/api/jobs', headers })).json() as Job[];
    expect(jobs.find((job) => job.kind === 'receipts.annual-run')).toMatchObject({
      title: 'Annual receipts 2025',
      state: 'queued',
      progress: { done: 2, total: 5 },
      cancellable: true,
    });
    // "Restart": a new app on the same database picks up the pending donors.
    const restarted = await appWithWork();
    expect(await restarted.work(() => false)).toBe(3);
    await ctx.worker.runOnce();
    const recipients = ctx.transport.sent.map((message) => message.toAddress).sort();
    expect(recipients).toEqual(donors.map((donor) => donor.email).sort());
    expect(
      (await restarted.app.inject({ url: `/api/donations/annual-runs/${run.id}`, headers })).json(),
    ).toMatchObject({
      status: 'done',
      emailed: 5,
    });
  });

  it('is cancelled with its job from the Jobs screen: nothing more is sent, a new run may start', async () => {
    const { app, work } = await appWithWork();
    const headers = bearer((await login(ctx)).id_token);
    const [donor] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Martin' })]);
    await app.inject({
      method: 'POST',
      url: '/api/donations',
      headers,
      payload: { subid: donor?.id, amount: 5, donationDate: '2025-06-01' },
    });
    const run = (
      await app.inject({
        method: 'POST',
        url: '/api/donations/annual-runs',
        headers,
        payload: { year: 2025 },
      })
    ).json();
    const job = ((await app.inject({ url: '/api/jobs', headers })).json() as Job[]).find(
      (row) => row.kind === 'receipts.annual-run',
    );
    const cancelled = await app.inject({ method: 'POST', url: `/api/jobs/${job?.id}/cancel`, headers });
    expect(cancelled.json()).toMatchObject({ state: 'cancelled' });
    expect(await work()).toBe(0);
    expect((await app.inject({ url: `/api/donations/annual-runs/${run.id}`, headers })).json()).toMatchObject(
      {
        status: 'cancelled',
        pending: 1,
      },
    );
    const again = await app.inject({
      method: 'POST',
      url: '/api/donations/annual-runs',
      headers,
      payload: { year: 2025 },
    });
    expect(again.statusCode).toBe(202);
  });

  it('is for Administrators only', async () => {
    await appWithWork();
    const { tokens } = await createSignedInUser(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/donations/annual-runs',
      headers: bearer(tokens.id_token),
      payload: { year: 2025 },
    });
    expect(response.statusCode).toBe(403);
    expect((await ctx.app.inject({ url: '/api/donations/annual-runs' })).statusCode).toBe(401);
  });

  it('counts the receipts issued, the donors emailed, and why the others were not', async () => {
    const { app, work } = await appWithWork();
    const headers = bearer((await login(ctx)).id_token);
    const [zoe, hans, anne, lea] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Martin' }),
      buildSubscriber({ lastName: 'Müller', email: '' }),
      buildSubscriber({ lastName: 'Roux' }),
      buildSubscriber({ lastName: 'Petit' }),
    ]);
    const donate = async (subid: number, amount: number) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/donations',
          headers,
          payload: { subid, amount, donationDate: '2025-06-01' },
        })
      ).json();
    await donate(zoe?.id ?? 0, 10);
    await donate(hans?.id ?? 0, 20);
    await donate(anne?.id ?? 0, 30);
    const single = await donate(lea?.id ?? 0, 40);
    // Anne's annual receipt exists before the run; each of Léa's gifts has its own receipt.
    expect((await app.inject({ url: `/api/donations/receipt/${anne?.id}/2025`, headers })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ url: `/api/donations/receipt/${single.id}`, headers })).statusCode).toBe(200);

    const started = await app.inject({
      method: 'POST',
      url: '/api/donations/annual-runs',
      headers,
      payload: { year: 2025 },
    });
    expect(started.json()).toMatchObject({ total: 3, skippedSingleReceipts: 1 });
    expect(await work(() => false)).toBe(3);
    const done = (
      await app.inject({ url: `/api/donations/annual-runs/${started.json().id}`, headers })
    ).json();
    expect(done).toMatchObject({
      status: 'done',
      emailed: 2,
      toPrint: 1,
      failed: 0,
      receiptsIssued: 2,
      alreadyIssued: 1,
      skippedSingleReceipts: 1,
      failures: [],
    });

    await ctx.worker.runOnce();
    const toAnne = ctx.transport.sent.find((message) => message.toAddress === anne?.email);
    expect(toAnne?.subject).toBe('Reçu fiscal 2025');
    expect(toAnne?.textBody).toContain("reçu fiscal récapitulatif des dons de l'année 2025");
    expect(toAnne?.htmlBody).toContain('<html lang="fr">');
  });
});
