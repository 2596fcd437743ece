import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';

const ctx = useTestApp();

let token = '';
async function api(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  token ||= (await login(ctx)).id_token;
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

const calendar = {
  name: 'Calendrier 2027',
  euroPrice: 12.5,
  swissPrice: 14,
  active: true,
  currentStock: 10,
  minStockAlert: 2,
};

async function createProduct(overrides: Partial<typeof calendar> = {}) {
  const response = await api('POST', '/api/products', { ...calendar, ...overrides });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: number; version: number; currentStock: number };
}

async function sell(productId: number, quantity: number) {
  const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
  return api('POST', '/api/sales', {
    subscriberId: buyer?.id,
    fullName: 'Mme Zoé Martin',
    items: [{ productId, quantity, euroUnitPrice: 12.5, swissUnitPrice: 14 }],
  });
}

describe('stock movements', () => {
  it('keeps a sale made while the product screen was open when that screen saves its edit', async () => {
    token = '';
    const product = await createProduct();
    // The product screen is opened: it shows stock 10, version 1.
    const opened = (await api('GET', `/api/products/${product.id}`)).json();
    expect(opened).toMatchObject({ currentStock: 10, version: 1 });
    expect((await sell(product.id, 3)).statusCode).toBe(201);
    // The screen saves what it shows, stock included: refused, nothing changes.
    const { id: _id, ...shown } = opened;
    const overwrite = await api('PATCH', `/api/products/${product.id}`, {
      ...shown,
      name: 'Calendrier 2028',
    });
    expect(overwrite.statusCode).toBe(400);
    expect(overwrite.json().errors).toContainEqual({
      path: 'currentStock',
      message: 'The stock changes only through a stock adjustment, not by editing the product.',
    });
    // The same edit without the stock goes through and leaves the sale's decrement alone.
    const { currentStock: _shownStock, ...edit } = shown;
    const saved = await api('PATCH', `/api/products/${product.id}`, { ...edit, name: 'Calendrier 2028' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Calendrier 2028', currentStock: 7, version: 2 });
  });

  it('adjusts the stock with a reason and lists the movements newest first, with who and when', async () => {
    token = '';
    const product = await createProduct({ currentStock: 10 });
    const { tokens } = await createSignedInUser(ctx);
    const added = await ctx.app.inject({
      method: 'POST',
      url: `/api/products/${product.id}/adjustments`,
      headers: bearer(tokens.id_token),
      payload: { quantity: 5, reason: '  Livraison imprimeur  ' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      kind: 'adjustment',
      quantity: 5,
      stockAfter: 15,
      reason: 'Livraison imprimeur',
      userName: 'Some Body',
    });
    const removed = await api('POST', `/api/products/${product.id}/adjustments`, {
      quantity: -15,
      reason: 'Inventaire : cartons abîmés',
    });
    expect(removed.json()).toMatchObject({ quantity: -15, stockAfter: 0, userName: 'Administrator' });
    expect((await api('GET', `/api/products/${product.id}`)).json()).toMatchObject({
      currentStock: 0,
      version: 1,
    });

    const all = (await api('GET', `/api/products/${product.id}/movements`)).json();
    expect(all.count).toBe(3);
    expect(all.models.map((movement: { quantity: number }) => movement.quantity)).toEqual([-15, 5, 10]);
    expect(all.models[2]).toMatchObject({ kind: 'adjustment', reason: 'Stock initial', stockAfter: 10 });
    const page = (await api('GET', `/api/products/${product.id}/movements?listfrom=2&listlength=1`)).json();
    expect(page).toEqual({ count: 3, models: [all.models[1]] });
  });

  it('answers 409 insufficient_stock for an adjustment below 0 and writes nothing', async () => {
    token = '';
    const product = await createProduct({ currentStock: 4 });
    const response = await api('POST', `/api/products/${product.id}/adjustments`, {
      quantity: -5,
      reason: 'Casse',
    });
    expect(response.statusCode).toBe(409);
    const message = 'Only 4 of "Calendrier 2027" in stock (5 asked).';
    expect(response.json()).toMatchObject({
      code: 'products.insufficient_stock',
      detail: message,
      errors: [{ path: 'quantity', message }],
    });
    expect((await api('GET', `/api/products/${product.id}/movements`)).json().count).toBe(1);
    expect((await api('GET', `/api/products/${product.id}`)).json().currentStock).toBe(4);
  });

  it.each([
    [{ quantity: 0, reason: 'Rien' }, 'quantity', 'The quantity cannot be 0.'],
    [{ quantity: 1.5, reason: 'Moitié' }, 'quantity', 'The quantity is a whole number of items.'],
    [{ quantity: 2e9, reason: 'Trop' }, 'quantity', 'The quantity is too large.'],
    [{ quantity: 2, reason: '   ' }, 'reason', 'The reason is required.'],
    [{ quantity: 2 }, 'reason', 'The reason is required.'],
    [{ quantity: 2, reason: 'x'.repeat(501) }, 'reason', 'The reason must have at most 500 characters.'],
  ])('answers 400 naming the field for the adjustment %j', async (payload, path, message) => {
    token = '';
    const product = await createProduct();
    const response = await api('POST', `/api/products/${product.id}/adjustments`, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path, message });
    expect((await api('GET', `/api/products/${product.id}`)).json().currentStock).toBe(10);
  });

  it('answers 404 for an unknown or deleted product, 400 for a bad page, 401 without sign-in', async () => {
    token = '';
    const product = await createProduct();
    expect((await api('GET', '/api/products/999/movements')).statusCode).toBe(404);
    expect(
      (await api('POST', '/api/products/999/adjustments', { quantity: 1, reason: 'Livraison' })).statusCode,
    ).toBe(404);
    const badPage = await api('GET', `/api/products/${product.id}/movements?listlength=501`);
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json().errors[0].path).toBe('listlength');
    expect((await ctx.app.inject({ url: `/api/products/${product.id}/movements` })).statusCode).toBe(401);
    await ctx.app.inject({ method: 'DELETE', url: `/api/products/${product.id}`, headers: bearer(token) });
    expect(
      (await api('POST', `/api/products/${product.id}/adjustments`, { quantity: 1, reason: 'Livraison' }))
        .statusCode,
    ).toBe(404);
  });
});
