import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';

const ctx = useTestApp();

const product = {
  name: 'Calendrier 2027',
  euroPrice: 1234.5,
  swissPrice: 1300,
  active: true,
  currentStock: 3,
  minStockAlert: 5,
};

/** What the edit form sends: the catalogue fields, without the stock. */
const { currentStock: _stock, ...editable } = product;

async function headers() {
  return bearer((await login(ctx)).id_token);
}

async function create(payload: Record<string, unknown> = product) {
  return ctx.app.inject({ method: 'POST', url: '/api/products', headers: await headers(), payload });
}

describe('products', () => {
  it('creates, lists, updates and deletes a product', async () => {
    const created = await create();
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(created.json()).toEqual({ id, ...product, version: 1 });

    const list = await ctx.app.inject({ url: '/api/products', headers: await headers() });
    expect(list.json()).toEqual([{ id, ...product, version: 1 }]);

    const updated = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/products/${id}`,
      headers: await headers(),
      payload: { ...editable, id, version: 1, name: 'Calendrier 2028', euroPrice: 0.1, active: false },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Calendrier 2028',
      euroPrice: 0.1,
      active: false,
      currentStock: 3,
      version: 2,
    });

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/products/${id}`,
      headers: await headers(),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await ctx.app.inject({ url: '/api/products', headers: await headers() })).json()).toEqual([]);
    expect((await ctx.app.inject({ url: `/api/products/${id}`, headers: await headers() })).statusCode).toBe(
      404,
    );
  });

  it('is open to any signed-in user but not to anonymous callers', async () => {
    expect((await ctx.app.inject({ url: '/api/products' })).statusCode).toBe(401);
    const { tokens } = await createSignedInUser(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: bearer(tokens.id_token),
      payload: product,
    });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    [{ name: 'abc' }, 'name', 'Name is required'],
    [{ euroPrice: undefined }, 'euroPrice', 'Price (Euro) is required'],
    [{ euroPrice: -1 }, 'euroPrice', 'The amount cannot be negative.'],
    [{ euroPrice: 1.234 }, 'euroPrice', 'The amount can have at most 2 decimals.'],
    [{ swissPrice: 'ten' }, 'swissPrice', 'Price (Swiss) is required'],
    [{ currentStock: -2 }, 'currentStock', 'The stock cannot be negative.'],
    [{ currentStock: 1.5 }, 'currentStock', 'Whole numbers only.'],
    [{ minStockAlert: null }, 'minStockAlert', 'Min Stock is required'],
    [{ active: 'yes' }, 'active', 'Active is required'],
  ])('answers 400 naming the field for %j and writes nothing', async (change, path, message) => {
    const response = await create({ ...product, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path, message });
    expect((await ctx.app.inject({ url: '/api/products', headers: await headers() })).json()).toEqual([]);
  });

  it('answers 404 for an unknown id and 400 for a body id that differs from the path', async () => {
    const missing = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/products/999',
      headers: await headers(),
      payload: { ...editable, version: 1 },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('products.not_found');
    const { id } = (await create()).json();
    const mismatch = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/products/${id}`,
      headers: await headers(),
      payload: { ...editable, id: id + 1, version: 1 },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: '/api/products/999', headers: await headers() }))
        .statusCode,
    ).toBe(404);
  });

  it('exports every product as a UTF-8 CSV with BOM, named by date, whatever the Accept header', async () => {
    await create({ ...product, name: 'Agenda été' });
    await create({ ...product, name: '=HYPERLINK("http://evil")', euroPrice: 2 });
    const response = await ctx.app.inject({
      url: '/api/products/export',
      headers: { ...(await headers()), accept: 'application/pdf' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const day = calendarDay(ctx.clock.now(), DEFAULT_TIME_ZONE); // the organisation's day (docs/decisions/012)
    expect(response.headers['content-disposition']).toContain(`filename="products-export-${day}.csv"`);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('id,name,euroPrice,swissPrice,active,currentStock,minStockAlert');
    expect(lines).toContain('1,Agenda été,1234.5,1300,true,3,5');
    expect(lines).toContain(`2,"'=HYPERLINK(""http://evil"")",2,1300,true,3,5`);
  });

  it('lists products in French order: accents and case do not count (part 2 §2.1)', async () => {
    for (const name of ['Zèbre bleu', 'émile carnet', 'Eva agenda', 'Alpha livre', 'Édith stylo']) {
      expect((await create({ ...product, name })).statusCode).toBe(201);
    }
    const list = await ctx.app.inject({ url: '/api/products', headers: await headers() });
    expect(list.json().map((item: { name: string }) => item.name)).toEqual([
      'Alpha livre',
      'Édith stylo',
      'émile carnet',
      'Eva agenda',
      'Zèbre bleu',
    ]);
  });

  it('exports in the Excel-FR dialect (; and decimal comma) and refuses an unknown dialect', async () => {
    await create({ ...product, name: 'Agenda; été' });
    const response = await ctx.app.inject({
      url: '/api/products/export?dialect=excel-fr',
      headers: await headers(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('id;name;euroPrice;swissPrice;active;currentStock;minStockAlert');
    expect(lines[1]).toBe('1;"Agenda; été";1234,5;1300;true;3;5');

    const rfc = await ctx.app.inject({
      url: '/api/products/export?dialect=rfc4180',
      headers: await headers(),
    });
    expect(rfc.body).toContain('1,Agenda; été,1234.5,1300,true,3,5');

    const unknown = await ctx.app.inject({
      url: '/api/products/export?dialect=excel',
      headers: await headers(),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([expect.objectContaining({ path: 'dialect' })]);
  });

  it('refuses a stale edit (409), an edit without version or with the stock (400), and writes nothing', async () => {
    const { id } = (await create()).json();
    const patch = async (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/products/${id}`, headers: await headers(), payload });
    expect((await patch({ ...editable, version: 1, name: 'Calendrier A' })).statusCode).toBe(200);

    const stale = await patch({ ...editable, version: 1, name: 'Calendrier B' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'products.stale',
      errors: [{ path: 'version', message: 'This product was changed since you opened it.' }],
    });
    const missing = await patch({ ...editable, name: 'Calendrier C' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([
      { path: 'version', message: 'The version read before editing is required.' },
    ]);
    const withStock = await patch({ ...editable, version: 2, currentStock: 50 });
    expect(withStock.statusCode).toBe(400);
    expect(withStock.json().errors).toEqual([
      {
        path: 'currentStock',
        message: 'The stock changes only through a stock adjustment, not by editing the product.',
      },
    ]);
    const now = await ctx.app.inject({ url: `/api/products/${id}`, headers: await headers() });
    expect(now.json()).toMatchObject({ name: 'Calendrier A', currentStock: 3, version: 2 });
  });
});
