import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';

const ctx = useTestApp();

type Work = (shouldStop: () => boolean) => Promise<number>;

/** An app whose background work the test runs by hand. */
async function appWithWork() {
  const works = new Map<string, Work>();
  const app = await ctx.build({
    registerBackgroundWork: (name, work) => {
      works.set(name, work);
      return () => {};
    },
  });
  const work = works.get('annual receipt runs');
  if (!work) throw new Error('the annual run registered no work');
  return { app, work };
}

describe('annual receipt run', () => {
  it('emails each donor with an email once, gathers the others for printing, and shows progress', async () => {
    const { app, work } = await appWithWork();
    const headers = bearer((await login(ctx)).id_token);
    const [zoe, hans, marc] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Martin' }),
      buildSubscriber({ lastName: 'Müller', email: '', currencyId: 2 }),
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
});
