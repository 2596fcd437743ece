/**
 * The gift of a sale (its "Dons", part 2 §2.6 New sale) is a donation of the buyer, receipted like
 * any other (CGI art. 200): made with the sale, deleted with it, removed by its credit note unless a
 * receipt covers it, and never deleted on its own while the sale stands.
 */
import type { DonationListItem, DonationSearchResult } from '@back-office/contract/donations';
import type { CreateSaleInput, Sale } from '@back-office/contract/sales';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asAdministrator, type TestApi } from '../../../test/api.ts';
import { useTestApp } from '../../../test/context.ts';
import { buildSale, buildSubscriber, insertProduct, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

type History = Array<{ description: string }>;

/** A buyer, an agenda at 12.50 € (14 CHF) and the donation product "Dons" at 10.00 (both currencies). */
async function seed() {
  const api = await asAdministrator(ctx);
  const [buyer] = await insertSubscribers(ctx, [buildSubscriber({ firstName: 'Zoé', lastName: 'Martin' })]);
  if (!buyer) throw new Error('no buyer');
  const agenda = await insertProduct(ctx, {
    name: 'Agenda été',
    euroPrice: 12.5,
    swissPrice: 14,
    currentStock: 20,
  });
  const gifts = await insertProduct(ctx, { name: 'Dons', euroPrice: 10, swissPrice: 10, currentStock: 100 });
  return { api, buyer, agenda, gifts };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

/** Sells one agenda (and `giftLines` of "Dons" at 10.00) with `overrides` of the payload. */
async function sell(
  { api, buyer, agenda, gifts }: Seeded,
  overrides: Partial<CreateSaleInput> = {},
  giftLines = 0,
) {
  const items = [{ productId: agenda.id, quantity: 1, euroUnitPrice: 12.5, swissUnitPrice: 14 }];
  if (giftLines > 0)
    items.push({ productId: gifts.id, quantity: giftLines, euroUnitPrice: 10, swissUnitPrice: 10 });
  return api.expectStatus<Sale>(201, 'POST', '/api/sales', buildSale(buyer.id, items, overrides));
}

async function donationsOf(api: TestApi, subscriberId: number) {
  return (await api.expectStatus<DonationSearchResult>(200, 'GET', `/api/donations?id=${subscriberId}`))
    .models;
}

async function historyOf(api: TestApi, subscriberId: number) {
  return (await api.expectStatus<History>(200, 'GET', `/api/subscribers/${subscriberId}/history`)).map(
    (entry) => entry.description,
  );
}

async function countDonations() {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from donations`,
  );
  return row?.n;
}

describe('the gift of a sale', () => {
  it('makes a sale with Dons 25.00 record one donation of 25.00 of the buyer, linked to the sale, with a history line', async () => {
    const seeded = await seed();
    const sale = await sell(seeded, { donation: 25 });
    expect(sale.total).toBe(37.5);
    const today = sale.dateAdded.slice(0, 10);
    const donations = await donationsOf(seeded.api, seeded.buyer.id);
    expect(donations).toEqual([
      expect.objectContaining<Partial<DonationListItem>>({
        subscriberId: seeded.buyer.id,
        amount: 25,
        currencySymbol: '€',
        notes: `Don de la vente n° ${sale.ref}`,
        receiptNumber: null,
        saleId: sale.id,
        saleRef: sale.ref,
      }),
    ]);
    expect(donations[0]?.dateAdded).toHaveLength(10);
    expect((await historyOf(seeded.api, seeded.buyer.id)).slice(0, 2)).toEqual([
      `Sale #${sale.ref} saved: 1 line(s), total 37,50 €.`,
      `Donation of 25,00 € dated ${donations[0]?.dateAdded} added with the sale #${sale.ref}.`,
    ]);
    // A gift recorded on its own carries no sale.
    const own = await seeded.api.expectStatus<DonationListItem>(201, 'POST', '/api/donations', {
      subid: seeded.buyer.id,
      amount: 10,
      donationDate: today,
    });
    expect(own).not.toHaveProperty('saleId');
    expect(own).not.toHaveProperty('saleRef');
  });

  it('dates the gift by the sale’s day in Europe/Paris: 23:30 UTC on 31 December is 1 January', async () => {
    const seeded = await seed();
    const before = ctx.clock.now().getTime();
    ctx.clock.advance(Date.parse('2025-12-31T23:30:00Z') - before);
    try {
      const api = await asAdministrator(ctx); // tokens are dated by the clock
      const sale = await sell({ ...seeded, api }, { donation: 25 });
      expect(sale.dateAdded).toBe('2025-12-31T23:30:00.000Z');
      const [donation] = await donationsOf(api, seeded.buyer.id);
      expect(donation).toMatchObject({ amount: 25, dateAdded: '2026-01-01', saleId: sale.id });
    } finally {
      ctx.clock.advance(before - ctx.clock.now().getTime());
    }
  });

  it('adds the lines of the "Dons" product to the gift: 2 × 10.00 plus Dons 5.00 give 25.00, the invoice unchanged', async () => {
    const seeded = await seed();
    const sale = await sell(seeded, { donation: 5 }, 2);
    // 12.50 + 20.00 + 5.00: the lines stay on the sale.
    expect(sale.total).toBe(37.5);
    expect(sale.saleDetails.map((line) => [line.productName, line.lineTotal])).toEqual([
      ['Agenda été', 12.5],
      ['Dons', 20],
    ]);
    expect(await donationsOf(seeded.api, seeded.buyer.id)).toMatchObject([{ amount: 25, saleId: sale.id }]);
    const invoice = await seeded.api.send('GET', `/api/sales/receipt/${sale.id}`);
    expect(invoice.status).toBe(200);
    const [page] = await pdfPages(invoice.raw);
    for (const text of ['Agenda été', 'Dons', '20,00 €', '5,00 €', '37,50 €'])
      expect(page, text).toContain(text);
  });

  it('counts the "Dons" lines less their share of the discount, in the sale’s currency', async () => {
    const seeded = await seed();
    // Swiss sale, 10 %: 2 × 10.00 CHF of gifts are paid 18.00 CHF, plus Dons 5.00.
    const sale = await sell(seeded, { donation: 5, discountPercentage: 10, swissSale: true }, 2);
    expect(sale.currencySymbol).toBe('CHF');
    expect(await donationsOf(seeded.api, seeded.buyer.id)).toMatchObject([
      { amount: 23, currencySymbol: 'CHF', saleId: sale.id },
    ]);
  });

  it('records no donation for a sale without gift, nor for a free "Dons" line', async () => {
    const seeded = await seed();
    await sell(seeded);
    const free = buildSale(seeded.buyer.id, [
      { productId: seeded.gifts.id, quantity: 3, euroUnitPrice: 0, swissUnitPrice: 0 },
    ]);
    await seeded.api.expectStatus(201, 'POST', '/api/sales', free);
    expect(await countDonations()).toBe(0);
  });

  it('deletes the donation with its sale, writing the donor’s history', async () => {
    const seeded = await seed();
    const sale = await sell(seeded, { donation: 25 });
    const [donation] = await donationsOf(seeded.api, seeded.buyer.id);
    await seeded.api.expectStatus(204, 'DELETE', `/api/sales/${sale.id}`);
    expect(await countDonations()).toBe(0);
    expect((await historyOf(seeded.api, seeded.buyer.id)).slice(0, 2)).toEqual([
      `Sale #${sale.ref} of 37,50 € deleted; its items were put back in stock.`,
      `Donation of 25,00 € dated ${donation?.dateAdded} deleted with the sale #${sale.ref}.`,
    ]);
  });

  it('refuses with 409 to delete a sale whose gift is on a tax receipt, and changes nothing', async () => {
    const seeded = await seed();
    const sale = await sell(seeded, { donation: 25 });
    const [donation] = await donationsOf(seeded.api, seeded.buyer.id);
    const receipt = await seeded.api.send('GET', `/api/donations/receipt/${donation?.id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    const [page] = await pdfPages(receipt.raw);
    expect(page).toContain('25,00 €');
    const historyBefore = await historyOf(seeded.api, seeded.buyer.id);

    const refused = await seeded.api.send<{ code: string; detail: string }>(
      'DELETE',
      `/api/sales/${sale.id}`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'sales.gift_receipted',
      detail: `The gift of 25,00 € of the sale #${sale.ref} is on tax receipt n° 1: cancel that receipt first, then delete the sale.`,
    });
    expect(await seeded.api.expectStatus<Sale>(200, 'GET', `/api/sales/${sale.id}`)).toMatchObject({
      status: 'active',
    });
    expect(await donationsOf(seeded.api, seeded.buyer.id)).toMatchObject([
      { id: donation?.id, amount: 25, receiptNumber: 1 },
    ]);
    const [stock] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select current_stock::int as n from products where id = ${seeded.agenda.id}`,
    );
    expect(stock?.n).toBe(19);
    expect(await historyOf(seeded.api, seeded.buyer.id)).toEqual(historyBefore);

    // Once the receipt is cancelled, the sale can go, and its gift with it.
    await seeded.api.expectStatus(200, 'POST', '/api/receipts/1/cancel', { reason: 'Vente annulée' });
    await seeded.api.expectStatus(204, 'DELETE', `/api/sales/${sale.id}`);
    expect(await countDonations()).toBe(0);
  });

  it('refuses with 409 donations.from_sale to delete on its own the gift of a sale that stands', async () => {
    const seeded = await seed();
    const sale = await sell(seeded, { donation: 25 });
    const [donation] = await donationsOf(seeded.api, seeded.buyer.id);
    const refused = await seeded.api.send<{ code: string; detail: string }>(
      'DELETE',
      `/api/donations/${donation?.id}`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'donations.from_sale',
      detail: `This donation is the gift of the sale #${sale.ref}: delete the sale, or cancel it with a credit note, instead.`,
    });
    expect(await donationsOf(seeded.api, seeded.buyer.id)).toMatchObject([{ id: donation?.id, amount: 25 }]);
  });

  it('removes the gift of a sale cancelled by a credit note, when no receipt covers it', async () => {
    const seeded = await seed();
    const sale = await sell(seeded, { donation: 25 });
    const [donation] = await donationsOf(seeded.api, seeded.buyer.id);
    await seeded.api.expectStatus(200, 'GET', `/api/sales/receipt/${sale.id}`);
    await seeded.api.expectStatus(201, 'POST', `/api/sales/${sale.id}/cancel`, { reason: 'Retour' });
    expect(await countDonations()).toBe(0);
    expect((await historyOf(seeded.api, seeded.buyer.id))[1]).toBe(
      `Donation of 25,00 € dated ${donation?.dateAdded} deleted as refunded by the credit note n° 1 of the sale #${sale.ref}.`,
    );
  });

  it('keeps a receipted gift of a sale cancelled by a credit note, and says the receipt should be cancelled', async () => {
    const seeded = await seed();
    const sale = await sell(seeded, { donation: 25 });
    const [donation] = await donationsOf(seeded.api, seeded.buyer.id);
    await seeded.api.expectStatus(200, 'GET', `/api/donations/receipt/${donation?.id}`);
    await seeded.api.expectStatus(200, 'GET', `/api/sales/receipt/${sale.id}`);
    await seeded.api.expectStatus(201, 'POST', `/api/sales/${sale.id}/cancel`, { reason: 'Retour' });
    expect(await donationsOf(seeded.api, seeded.buyer.id)).toMatchObject([
      { id: donation?.id, amount: 25, receiptNumber: 1, saleId: sale.id },
    ]);
    expect((await historyOf(seeded.api, seeded.buyer.id))[1]).toBe(
      `Tax receipt n° 1 covers the gift of 25,00 € dated ${donation?.dateAdded} of the sale #${sale.ref}, refunded by the credit note n° 1: the receipt should be cancelled.`,
    );
    // The receipt cancelled, the refunded gift can be deleted on its own: its sale no longer stands.
    await seeded.api.expectStatus(200, 'POST', '/api/receipts/1/cancel', { reason: 'Don remboursé' });
    await seeded.api.expectStatus(204, 'DELETE', `/api/donations/${donation?.id}`);
    expect(await countDonations()).toBe(0);
  });
});
