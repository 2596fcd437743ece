import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';

const ctx = useTestApp();

describe('POST /api/sales/email/list', () => {
  it('emails each distinct buyer behind the matching sales once, personalised, with the unsubscribe link', async () => {
    const headers = bearer((await login(ctx)).id_token);
    const [zoe, hans, marc, noEmail] = await insertSubscribers(ctx, [
      buildSubscriber({ firstName: 'Zoé', lastName: 'Martin' }),
      buildSubscriber({ firstName: 'Hans', lastName: 'Müller' }),
      buildSubscriber({ firstName: 'Marc', lastName: 'Durand' }),
      buildSubscriber({ firstName: 'Nina', lastName: 'Sansmail', email: '' }),
    ]);
    const product = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/products',
        headers,
        payload: {
          name: 'Agenda été',
          euroPrice: 10,
          swissPrice: 11,
          active: true,
          currentStock: 50,
          minStockAlert: 0,
        },
      })
    ).json();
    const sell = (subscriberId: number, quantity: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/sales',
        headers,
        payload: {
          subscriberId,
          items: [{ productId: product.id, quantity, euroUnitPrice: 10, swissUnitPrice: 11 }],
        },
      });
    await sell(zoe?.id ?? 0, 1);
    await sell(zoe?.id ?? 0, 9);
    await sell(hans?.id ?? 0, 5);
    await sell(noEmail?.id ?? 0, 5);
    // Marc bought nothing.
    expect(marc?.id).toBeGreaterThan(0);

    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/sales/email/list',
      headers,
      payload: {
        subject: 'Merci {firstName}',
        message: 'Bonjour {firstName} {lastName}',
        amountMin: 20,
        productId: product.id,
      },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ queued: 2 });
    await ctx.worker.runOnce();
    const sent = ctx.transport.sent.map((message) => [message.toAddress, message.subject]).sort();
    expect(sent).toEqual(
      [
        [hans?.email, 'Merci Hans'],
        [zoe?.email, 'Merci Zoé'],
      ].sort(),
    );
    expect(ctx.transport.sent[0]?.textBody).toMatch(/\/unsubscribe\?s=\d+&t=/);

    const byName = await ctx.app.inject({
      method: 'POST',
      url: '/api/sales/email/list',
      headers,
      payload: { subject: 'Bonjour', message: 'Texte', name: 'mull' },
    });
    expect(byName.json()).toMatchObject({ queued: 1 });
  });

  it('answers 400 naming the field for a short subject or an empty message', async () => {
    const headers = bearer((await login(ctx)).id_token);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/sales/email/list',
      headers,
      payload: { subject: 'Hi', message: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'subject', message: 'Subject is required' },
        { path: 'message', message: 'Message is required' },
      ]),
    );
  });
});
