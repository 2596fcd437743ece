import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

let token = '';
async function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  token ||= (await login(ctx)).id_token;
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function product(name: string, euroPrice: number, swissPrice: number, currentStock = 10) {
  const response = await api('POST', '/api/products', {
    name,
    euroPrice,
    swissPrice,
    active: true,
    currentStock,
    minStockAlert: 2,
  });
  return response.json() as { id: number };
}

async function stockOf(id: number) {
  const list = (await api('GET', '/api/products')).json() as Array<{ id: number; currentStock: number }>;
  return list.find((item) => item.id === id)?.currentStock;
}

function salePayload(
  subscriberId: number,
  items: Array<{ productId: number; quantity: number; euro: number; swiss: number }>,
  extra = {},
) {
  return {
    subscriberId,
    fullName: 'Mme Zoé Martin',
    association: '',
    currencySymbol: '€',
    discountPercentage: 0,
    donation: 0,
    deliveryCharge: 0,
    includeThanks: false,
    includePaymentTerms: false,
    paymentTermDays: 30,
    swissSale: false,
    addr1: '1 rue du Lac',
    addr2: '',
    addr3: '',
    town: 'Lyon',
    postcode: '69001',
    orderNumber: '',
    deliveryAddress: '',
    country: 'France',
    notes: '',
    items: items.map((item) => ({
      productId: item.productId,
      productName: 'ignored',
      quantity: item.quantity,
      euroUnitPrice: item.euro,
      swissUnitPrice: item.swiss,
    })),
    ...extra,
  };
}

describe('sales', () => {
  it('recomputes every figure, copies the product, takes stock and writes the history', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Martin' })]);
    const agenda = await product('Agenda été', 12.5, 14, 10);
    const mug = await product('Mug du lac', 0.34, 0.5, 5);
    const response = await api(
      'POST',
      '/api/sales',
      salePayload(
        buyer?.id ?? 0,
        [
          { productId: agenda.id, quantity: 3, euro: 12.5, swiss: 14 },
          { productId: mug.id, quantity: 2, euro: 0, swiss: 0 },
        ],
        {
          discountPercentage: 10,
          donation: 5,
          deliveryCharge: 4.9,
          total: 1 /* ignored: the server computes */,
        },
      ),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      ref: 1,
      subscriberId: buyer?.id,
      subscriberName: 'Mme Zoé Martin',
      // 37.50 - 3.75 + 5 + 4.90
      total: 43.65,
      currencyName: 'EURO',
      currencySymbol: '€',
      addedBy: 'Administrator',
      saleDetails: [
        { productName: 'Agenda été', quantity: 3, unitPrice: 12.5, lineTotal: 37.5 },
        { productName: 'Mug du lac', quantity: 2, unitPrice: 0, lineTotal: 0 },
      ],
    });
    expect(await stockOf(agenda.id)).toBe(7);
    expect(await stockOf(mug.id)).toBe(3);
    const [latest] = (await api('GET', `/api/subscribers/${buyer?.id}/history`)).json();
    expect(latest.description).toBe('Sale #1 saved: 2 line(s), total 43,65 €.');
  });

  it('uses the Swiss prices and francs for a Swiss sale', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14.2);
    const response = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 2, euro: 12.5, swiss: 14.2 }], {
        swissSale: true,
      }),
    );
    expect(response.json()).toMatchObject({
      total: 28.4,
      currencySymbol: 'CHF',
      saleDetails: [{ unitPrice: 14.2 }],
    });
  });

  it.each([
    [{ items: [] }, 'items', 'Please add some product lines.'],
    [{ discountPercentage: 101 }, 'discountPercentage', 'The discount is between 0 and 100 %.'],
    [{ donation: -1 }, 'donation', 'Prices cannot be negative.'],
  ])('answers 400 naming the field for %j', async (change, path, message) => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14);
    const response = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 1, euro: 1, swiss: 1 }], change),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path, message });
  });

  it('answers 400 for a zero quantity, an unknown product or buyer, and takes no stock', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14, 10);
    const zero = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 0, euro: 1, swiss: 1 }]),
    );
    expect(zero.json().errors[0]).toEqual({
      path: 'items.0.quantity',
      message: 'The quantity must be a whole number above 0.',
    });
    const unknown = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [
        { productId: agenda.id, quantity: 1, euro: 1, swiss: 1 },
        { productId: 9999, quantity: 1, euro: 1, swiss: 1 },
      ]),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([
      { path: 'items.1.productId', message: 'This product does not exist.' },
    ]);
    const nobody = await api(
      'POST',
      '/api/sales',
      salePayload(9999, [{ productId: agenda.id, quantity: 1, euro: 1, swiss: 1 }]),
    );
    expect(nobody.json().errors).toEqual([
      { path: 'subscriberId', message: 'This subscriber does not exist.' },
    ]);
    expect(await stockOf(agenda.id)).toBe(10);
    // The failed attempts used no reference: the next sale is #1.
    const ok = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 1, euro: 12.5, swiss: 14 }]),
    );
    expect(ok.json().ref).toBe(1);
  });

  it('answers 409 insufficient_stock naming the product and what is left, and writes nothing', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14, 3);
    const mug = await product('Mug du lac', 5, 6, 10);
    const response = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [
        { productId: mug.id, quantity: 2, euro: 5, swiss: 6 },
        { productId: agenda.id, quantity: 2, euro: 12.5, swiss: 14 },
        { productId: agenda.id, quantity: 2, euro: 0, swiss: 0 },
      ]),
    );
    expect(response.statusCode).toBe(409);
    const message = 'Only 3 of "Agenda été" in stock (4 asked).';
    expect(response.json()).toMatchObject({
      code: 'products.insufficient_stock',
      detail: message,
      errors: [{ path: 'items.1.quantity', message }],
    });
    expect(await stockOf(agenda.id)).toBe(3);
    expect(await stockOf(mug.id)).toBe(10);
    expect((await api('GET', `/api/products/${mug.id}/movements`)).json().count).toBe(1);
    const exact = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 3, euro: 12.5, swiss: 14 }]),
    );
    expect(exact.json()).toMatchObject({ ref: 1 });
    expect(await stockOf(agenda.id)).toBe(0);
  });

  it.each([
    [
      false,
      { euro: 1, swiss: 14 },
      'items.0.euroUnitPrice',
      "The euro price must be the catalogue's (12.50) or 0 for a free line.",
    ],
    [
      true,
      { euro: 12.5, swiss: 1 },
      'items.0.swissUnitPrice',
      "The Swiss price must be the catalogue's (14.00) or 0 for a free line.",
    ],
    [
      false,
      { euro: 12.5, swiss: 14, unitPrice: 0.01 },
      'items.0.unitPrice',
      "The euro price must be the catalogue's (12.50) or 0 for a free line.",
    ],
  ])(
    'refuses a price the catalogue does not have (Swiss sale %s, line %j)',
    async (swissSale, prices, path, message) => {
      token = '';
      const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
      const agenda = await product('Agenda été', 12.5, 14, 10);
      const payload = salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 1, ...prices }], {
        swissSale,
      });
      const response = await api('POST', '/api/sales', {
        ...payload,
        items: payload.items.map((item) => ({
          ...item,
          ...('unitPrice' in prices ? { unitPrice: prices.unitPrice } : {}),
        })),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ path, message }]);
      expect(await stockOf(agenda.id)).toBe(10);
    },
  );

  it('stores the catalogue prices, or 0 for both on a free line, whatever else the line says', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14, 10);
    const response = await api(
      'POST',
      '/api/sales',
      salePayload(buyer?.id ?? 0, [
        { productId: agenda.id, quantity: 1, euro: 12.5, swiss: 999 },
        { productId: agenda.id, quantity: 1, euro: 0, swiss: 999 },
      ]),
    );
    expect(response.json().saleDetails).toEqual([
      expect.objectContaining({ euroUnitPrice: 12.5, swissUnitPrice: 14, unitPrice: 12.5, lineTotal: 12.5 }),
      expect.objectContaining({ euroUnitPrice: 0, swissUnitPrice: 0, unitPrice: 0, lineTotal: 0 }),
    ]);
  });

  it('puts the stock back when a sale is deleted, writes both movements and the history', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14, 10);
    const sale = (
      await api(
        'POST',
        '/api/sales',
        salePayload(buyer?.id ?? 0, [
          { productId: agenda.id, quantity: 3, euro: 12.5, swiss: 14 },
          { productId: agenda.id, quantity: 1, euro: 0, swiss: 0 },
        ]),
      )
    ).json();
    expect(await stockOf(agenda.id)).toBe(6);
    expect((await api('DELETE', `/api/sales/${sale.id}`)).statusCode).toBe(204);
    expect(await stockOf(agenda.id)).toBe(10);
    expect((await api('DELETE', `/api/sales/${sale.id}`)).statusCode).toBe(404);
    expect(await stockOf(agenda.id)).toBe(10);
    const [latest] = (await api('GET', `/api/subscribers/${buyer?.id}/history`)).json();
    expect(latest.description).toBe('Sale #1 of 37,50 € deleted; its items were put back in stock.');
    const movements = (await api('GET', `/api/products/${agenda.id}/movements`)).json();
    expect(movements).toEqual({
      count: 3,
      models: [
        {
          id: expect.any(Number),
          at: expect.any(String),
          kind: 'saleCancelled',
          quantity: 4,
          stockAfter: 10,
          saleId: sale.id,
          userName: 'Administrator',
        },
        {
          id: expect.any(Number),
          at: expect.any(String),
          kind: 'sale',
          quantity: -4,
          stockAfter: 6,
          saleId: sale.id,
          userName: 'Administrator',
        },
        {
          id: expect.any(Number),
          at: expect.any(String),
          kind: 'adjustment',
          quantity: 10,
          stockAfter: 10,
          reason: 'Stock initial',
          userName: 'Administrator',
        },
      ],
    });
  });

  it('sells exactly the stock under 20 concurrent sales of the last 15, references gapless', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14, 15);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api(
          'POST',
          '/api/sales',
          salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 1, euro: 12.5, swiss: 14 }]),
        ),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(15);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    expect(
      responses
        .filter((response) => response.statusCode === 201)
        .map((response) => response.json().ref)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));
    expect(await stockOf(agenda.id)).toBe(0);
  });

  it('finds sales by each filter, newest first', async () => {
    token = '';
    const [zoe, hans] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Martin' }),
      buildSubscriber({ lastName: 'Müller' }),
    ]);
    const agenda = await product('Agenda été', 10, 11);
    const mug = await product('Mug du lac', 5, 6, 20);
    const sell = async (
      buyer: number,
      items: Array<{ productId: number; quantity: number; euro: number; swiss: number }>,
      extra = {},
    ) =>
      (await api('POST', '/api/sales', salePayload(buyer, items, extra))).json() as {
        id: number;
        ref: number;
      };
    const a = await sell(zoe?.id ?? 0, [{ productId: agenda.id, quantity: 1, euro: 10, swiss: 11 }], {
      postcode: '69001',
    });
    const b = await sell(zoe?.id ?? 0, [{ productId: mug.id, quantity: 10, euro: 5, swiss: 6 }], {
      postcode: '69002',
    });
    const c = await sell(hans?.id ?? 0, [{ productId: mug.id, quantity: 1, euro: 5, swiss: 6 }], {
      postcode: '1201',
    });
    const today = calendarDay(new Date(), DEFAULT_TIME_ZONE); // the organisation's day (docs/decisions/012)
    const cases: Array<[string, Array<{ id: number }>]> = [
      ['', [c, b, a]],
      ['id=-1', [c, b, a]],
      [`id=${zoe?.id}`, [b, a]],
      [`salesref=${b.ref}`, [b]],
      ['name=mart', [b, a]],
      ['name=RTI', [b, a]],
      ['name=rti&zip=69002', [b]],
      ['name=rti&zip=1201', []],
      ['zip=690', [b, a]],
      [`addedafter=${today}`, [c, b, a]],
      [`addedbefore=${today}`, []],
      ['greaterThan=5', [b, a]],
      ['lessThan=50', [c, a]],
      [`productid=${mug.id}`, [c, b]],
      [`productid=${mug.id}&id=${zoe?.id}`, [b]],
    ];
    for (const [query, expected] of cases) {
      const response = await api('GET', `/api/sales?${query}`);
      expect(response.statusCode, query).toBe(200);
      expect(
        response.json().map((sale: { id: number }) => sale.id),
        query,
      ).toEqual(expected.map((sale) => sale.id));
    }
    const [row] = (await api('GET', `/api/sales?salesref=${a.ref}`)).json();
    expect(row).toEqual({
      id: a.id,
      subscriberId: zoe?.id,
      fullName: 'Mme Zoé Martin',
      total: 10,
      currencyName: 'EURO',
      currencySymbol: '€',
      dateAdded: expect.any(String),
      postcode: '69001',
      address: '1 rue du Lac, Lyon',
      ref: a.ref,
      invoiceIssued: false,
      status: 'active',
      creditNoteNumber: null,
      paymentStatus: null,
      reminderLevel: 0,
      lastReminderOn: null,
    });
  });

  it('renders the invoice with every figure, terms, thanks and notes', async () => {
    token = '';
    await api('PUT', '/api/settings', {
      organisationName: 'Les Amis du Léman',
      address: '12 rue du Lac\n74200 Thonon-les-Bains',
      emailSenderName: '',
      emailSenderAddress: 'contact@amis-leman.org',
      sirenOrRna: 'W741000000',
      sepaCreditorId: '',
      signatoryName: '',
      signatoryTitle: '',
      organisationPurpose: '',
      receiptStatement: '',
      invoiceFooter: 'Association loi 1901 non assujettie à la TVA',
      paymentTermsText: 'Chèque à l’ordre des Amis du Léman.',
      logo: null,
    });
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const agenda = await product('Agenda été', 12.5, 14, 10);
    const sale = (
      await api(
        'POST',
        '/api/sales',
        salePayload(buyer?.id ?? 0, [{ productId: agenda.id, quantity: 3, euro: 12.5, swiss: 14 }], {
          discountPercentage: 10,
          deliveryCharge: 4.9,
          donation: 5,
          includePaymentTerms: true,
          paymentTermDays: 30,
          includeThanks: true,
          orderNumber: 'BC-77',
          deliveryAddress: 'Chalet des Pins\n74110 Morzine',
          notes: 'Remis en main propre.',
        }),
      )
    ).json();
    const response = await api('GET', `/api/sales/receipt/${sale.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(`filename="sale-invoice-${sale.ref}.pdf"`);
    const [page] = await pdfPages(response.rawPayload);
    for (const text of [
      'Facture',
      `N° ${sale.ref}`,
      'Les Amis du Léman',
      'Mme Zoé Martin',
      'Commande n° BC-77',
      'Chalet des Pins',
      'Agenda été',
      '12,50 €',
      '37,50 €',
      'Remise 10 %',
      '3,75 €',
      'Frais de livraison',
      '4,90 €',
      'Don',
      '43,65 €',
      'Conditions de paiement : 30 jours',
      'Merci pour votre commande',
      'Remis en main propre.',
      'Association loi 1901 non assujettie à la TVA',
    ]) {
      expect(page, text).toContain(text);
    }
    expect((await api('GET', '/api/sales/receipt/9999')).statusCode).toBe(404);
  });

  it('gives an invoice its payment reference when it is issued, and keeps it', async () => {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const item = await product('Carte de membre', 20, 22);
    const newSale = async () => {
      const response = await api(
        'POST',
        '/api/sales',
        salePayload(buyer?.id ?? 0, [{ productId: item.id, quantity: 1, euro: 20, swiss: 22 }]),
      );
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: number; ref: number; paymentReference: string | null }>();
    };
    const readSale = async (id: number) =>
      (await api('GET', `/api/sales/${id}`)).json<{ paymentReference: string | null }>();
    const setAccounts = async (bankAccounts: Array<{ currency: string; iban: string }>) => {
      const current = (await api('GET', '/api/settings')).json<Record<string, unknown>>();
      // A Swiss account makes the invoice end with a QR-bill, which needs the structured address.
      const address = {
        organisationName: 'Les Amis du Léman',
        addressStreet: 'Rue du Rhône',
        addressBuildingNumber: '12',
        addressPostcode: '1204',
        addressTown: 'Genève',
        addressCountry: 'CH',
      };
      expect((await api('PUT', '/api/settings', { ...current, ...address, bankAccounts })).statusCode).toBe(
        200,
      );
    };

    // No account in euros: an ISO 11649 creditor reference, from the first download on.
    const plain = await newSale();
    expect(plain.paymentReference).toBeNull();
    const document = await api('GET', `/api/sales/receipt/${plain.id}`);
    expect(document.statusCode).toBe(200);
    const rf = (await readSale(plain.id)).paymentReference;
    expect(rf).toMatch(new RegExp(`^RF\\d{2}${plain.ref}$`));
    // The invoice prints it for the buyer to quote.
    const [page] = await pdfPages(document.rawPayload);
    expect(page).toContain('Référence de paiement, à indiquer avec votre règlement');
    expect(page?.replace(/\s/g, '')).toContain(rf);

    // A QR-IBAN in euros: a QR reference of 27 digits.
    await setAccounts([{ currency: 'EUR', iban: 'CH4431999123000889012' }]);
    const swiss = await newSale();
    expect((await api('GET', `/api/sales/receipt/${swiss.id}`)).statusCode).toBe(200);
    expect((await readSale(swiss.id)).paymentReference).toMatch(new RegExp(`^0+${swiss.ref}\\d$`));
    expect((await readSale(swiss.id)).paymentReference).toHaveLength(27);

    // Issued invoices keep theirs when the settings change or the PDF is downloaded again.
    await setAccounts([]);
    expect((await api('GET', `/api/sales/receipt/${plain.id}`)).statusCode).toBe(200);
    expect((await readSale(plain.id)).paymentReference).toBe(rf);
    expect((await readSale(swiss.id)).paymentReference).toMatch(/^\d{27}$/);
  });

  it('needs a signed-in user', async () => {
    expect((await ctx.app.inject({ url: '/api/sales' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/api/sales/receipt/1' })).statusCode).toBe(401);
  });
});

describe('invoice payments', () => {
  type SaleWithPayments = {
    id: number;
    ref: number;
    paymentStatus: string | null;
    dueDate: string | null;
    paidAmount: number;
    payments: Array<{ date: string; amount: number; source: string; recordedBy: string }>;
  };
  const today = () => calendarDay(ctx.clock.now(), DEFAULT_TIME_ZONE);

  async function invoicedSale(price = 50) {
    token = '';
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    const item = await product(`Abonnement ${Math.random()}`, price, price + 5);
    const sale = (
      await api(
        'POST',
        '/api/sales',
        salePayload(buyer?.id ?? 0, [{ productId: item.id, quantity: 1, euro: price, swiss: price + 5 }], {
          paymentTermDays: 15,
        }),
      )
    ).json<SaleWithPayments>();
    return { sale, buyerId: buyer?.id ?? 0 };
  }
  const issue = async (id: number) =>
    expect((await api('GET', `/api/sales/receipt/${id}`)).statusCode).toBe(200);
  const read = async (id: number) => (await api('GET', `/api/sales/${id}`)).json<SaleWithPayments>();
  const pay = (id: number, amount: number, date = today()) =>
    api('POST', `/api/sales/${id}/payments`, { date, amount });

  it('records partial and full payments of an issued invoice, with history, refusing too much or too late', async () => {
    const { sale, buyerId } = await invoicedSale(50);
    expect(sale).toMatchObject({ paymentStatus: null, dueDate: null, paidAmount: 0, payments: [] });
    const early = await pay(sale.id, 10);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'sales.invoice_not_issued' });

    await issue(sale.id);
    const due = new Date(ctx.clock.now().getTime() + 15 * 86_400_000);
    expect(await read(sale.id)).toMatchObject({
      paymentStatus: 'unpaid',
      dueDate: calendarDay(due, DEFAULT_TIME_ZONE),
      paidAmount: 0,
    });

    const partial = await pay(sale.id, 20.5);
    expect(partial.statusCode, partial.body).toBe(201);
    expect(partial.json()).toMatchObject({
      paymentStatus: 'partiallyPaid',
      paidAmount: 20.5,
      payments: [{ date: today(), amount: 20.5, source: 'manual', recordedBy: expect.any(String) }],
    });

    const tooMuch = await pay(sale.id, 30);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({
      errors: [{ path: 'amount', message: 'At most 29,50 € remains to pay.' }],
    });
    const future = await pay(sale.id, 5, '2999-01-01');
    expect(future.statusCode).toBe(400);
    expect(future.json()).toMatchObject({
      errors: [{ path: 'date', message: 'The date cannot be in the future.' }],
    });
    const negative = await pay(sale.id, -5);
    expect(negative.statusCode).toBe(400);
    expect(negative.json()).toMatchObject({ errors: [{ path: 'amount' }] });

    expect((await pay(sale.id, 29.5)).json()).toMatchObject({ paymentStatus: 'paid', paidAmount: 50 });
    expect((await pay(sale.id, 0.01)).json()).toMatchObject({
      errors: [{ path: 'amount', message: 'This invoice is paid in full.' }],
    });
    const history = (await api('GET', `/api/subscribers/${buyerId}/history`)).body;
    expect(history).toContain(
      `Payment of 20,50 € dated ${today()} recorded for the invoice of the sale #${sale.ref}.`,
    );
  });

  it('says overdue past the due date, filters sales by payment status, and has nothing due once cancelled', async () => {
    const { sale: late } = await invoicedSale(40);
    await issue(late.id);
    const { sale: settled } = await invoicedSale(30);
    await issue(settled.id);
    await pay(settled.id, 30);
    const { sale: cancelled } = await invoicedSale(20);
    await issue(cancelled.id);
    expect(
      (await api('POST', `/api/sales/${cancelled.id}/cancel`, { reason: 'Commande annulée' })).statusCode,
    ).toBe(201);
    const { sale: draft } = await invoicedSale(10);

    ctx.clock.advance(16 * 86_400_000);
    token = '';
    expect((await read(late.id)).paymentStatus).toBe('overdue');
    expect((await read(settled.id)).paymentStatus).toBe('paid');
    expect((await read(cancelled.id)).paymentStatus).toBeNull();
    expect((await read(draft.id)).paymentStatus).toBeNull();
    const refsOf = async (status: string) =>
      (await api('GET', `/api/sales?paymentStatus=${status}`))
        .json<Array<{ ref: number; paymentStatus: string }>>()
        .map((row) => [row.ref, row.paymentStatus]);
    expect(await refsOf('overdue')).toEqual([[late.ref, 'overdue']]);
    expect(await refsOf('paid')).toEqual([[settled.ref, 'paid']]);
    expect(await refsOf('unpaid')).toEqual([]);
    expect((await api('GET', '/api/sales?paymentStatus=late')).statusCode).toBe(400);
    expect((await api('GET', '/api/dash/overdue')).json()).toEqual({
      count: 1,
      amounts: [{ currencySymbol: '€', amount: 40 }],
    });
    // A partial payment of an overdue invoice leaves it overdue, with less to pay.
    await pay(late.id, 10);
    expect((await read(late.id)).paymentStatus).toBe('overdue');
    expect((await api('GET', '/api/dash/overdue')).json()).toEqual({
      count: 1,
      amounts: [{ currencySymbol: '€', amount: 30 }],
    });
    expect((await pay(cancelled.id, 5)).json()).toMatchObject({ code: 'sales.already_cancelled' });
  });

  it('emails payment reminders of an overdue invoice, the invoice attached, no closer than the interval', async () => {
    const { sale, buyerId } = await invoicedSale(40);
    const remind = () => api('POST', `/api/sales/${sale.id}/reminders`);
    const notIssued = await remind();
    expect(notIssued.json(), JSON.stringify(sale)).toMatchObject({ code: 'sales.not_overdue' });
    await issue(sale.id);
    expect((await remind()).json()).toMatchObject({ code: 'sales.not_overdue' });
    await pay(sale.id, 15);
    ctx.clock.advance(16 * 86_400_000);
    token = '';

    const first = await remind();
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      reminderLevel: 1,
      lastReminderOn: today(),
      paymentStatus: 'overdue',
    });
    const [buyer] = await queryRows<{ email: string }>(
      ctx.database.db,
      sql`select email from subscribers where id = ${buyerId}`,
    );
    const [mail] = await queryRows<{
      to_address: string;
      subject: string;
      text_body: string;
      attachments: Array<{ filename: string }>;
    }>(
      ctx.database.db,
      sql`select to_address, subject, text_body, attachments from outbox_messages where subscriber_id = ${buyerId}`,
    );
    expect(mail).toMatchObject({
      to_address: buyer?.email,
      subject: `Relance : facture n° ${sale.ref}`,
      attachments: [{ filename: `sale-invoice-${sale.ref}.pdf` }],
    });
    expect(mail?.text_body).toContain(`la facture n° ${sale.ref}, échue le`);
    expect(mail?.text_body).toContain('25,00 € restent à régler');

    const soon = await remind();
    expect(soon.statusCode).toBe(409);
    const next = calendarDay(new Date(ctx.clock.now().getTime() + 14 * 86_400_000), DEFAULT_TIME_ZONE);
    expect(soon.json()).toMatchObject({
      code: 'sales.reminder_too_soon',
      detail: `The last reminder was sent on ${today()}; the next one can be sent from ${next}.`,
    });
    ctx.clock.advance(14 * 86_400_000);
    token = '';
    expect((await remind()).json()).toMatchObject({ reminderLevel: 2, lastReminderOn: next });
    const listed = (await api('GET', '/api/sales?paymentStatus=overdue')).json<
      Array<{ ref: number; reminderLevel: number; lastReminderOn: string }>
    >();
    expect(listed.find((row) => row.ref === sale.ref)).toMatchObject({
      reminderLevel: 2,
      lastReminderOn: next,
    });
    // The export has the list's rows: overdue on the app's day (a month ahead of the system's), not paid.
    const exported = async (status: string) =>
      (await api('GET', `/api/sales/export?paymentStatus=${status}`)).body.split('\n').slice(1).join('\n');
    expect(await exported('overdue')).toContain(`${sale.ref},`);
    expect(await exported('paid')).not.toContain(`${sale.ref},`);
    const history = (await api('GET', `/api/subscribers/${buyerId}/history`)).body;
    expect(history).toContain(
      `Payment reminder n° 2 of the invoice of the sale #${sale.ref} emailed to ${buyer?.email}.`,
    );

    // A buyer without an email address cannot be reminded by email.
    await ctx.database.db.execute(sql`update subscribers set email = '' where id = ${buyerId}`);
    ctx.clock.advance(14 * 86_400_000);
    token = '';
    expect((await remind()).json()).toMatchObject({ code: 'sales.no_email' });
  });

  it('takes one of two payments of the whole balance sent at once', async () => {
    const { sale } = await invoicedSale(25);
    await issue(sale.id);
    const answers = await Promise.all([pay(sale.id, 25), pay(sale.id, 25)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400]);
    expect((await read(sale.id)).paidAmount).toBe(25);
  });
});
