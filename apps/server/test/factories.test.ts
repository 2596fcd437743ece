import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator } from './api.ts';
import { useTestApp } from './context.ts';
import {
  buildSale,
  buildSubscriber,
  insertDonation,
  insertProduct,
  insertReferenceItem,
  insertSale,
  insertSubscribers,
} from './factories.ts';

const ctx = useTestApp();

describe('test factories and the test API client', () => {
  it('make a valid record of every entity through the API', async () => {
    const category = await insertReferenceItem(ctx, 'cats', { name: 'Mécènes' });
    const [donor] = await insertSubscribers(ctx, [buildSubscriber({ categoryId: category.id })]);
    const product = await insertProduct(ctx, { currentStock: 10 });
    const donation = await insertDonation(ctx, donor?.id ?? 0, { amount: 40 });
    const sale = await insertSale(
      ctx,
      buildSale(donor?.id ?? 0, [
        {
          productId: product.id,
          quantity: 2,
          euroUnitPrice: product.euroPrice,
          swissUnitPrice: product.swissPrice,
        },
      ]),
    );
    expect(sale.total).toBe(25);

    const api = await asAdministrator(ctx);
    const record = await api.get<{ categoryId: number }>(`/api/subscribers/${donor?.id}`);
    expect(record).toMatchObject({ status: 200, body: { categoryId: category.id } });
    const products = await api.get<Array<{ id: number; currentStock: number }>>('/api/products');
    expect(products.body.find((row) => row.id === product.id)?.currentStock).toBe(8);
    expect(donation.id).toBeGreaterThan(0);
  });

  it('say which request failed and why when a set-up step is refused', async () => {
    await expect(apiClient(ctx).expectStatus(200, 'GET', '/api/products')).rejects.toThrow(
      /GET \/api\/products: expected 200, got 401/,
    );
  });
});
