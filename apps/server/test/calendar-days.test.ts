/**
 * Calendar days are the organisation's (docs/decisions/012; `ORG_TIMEZONE`, default Europe/Paris): "today",
 * day filters, the dates printed on documents and file names, checked with the clock at 31 December
 * 23:30 and 1 January 00:30 in Paris, and on both summer-time changes.
 */
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from './context.ts';
import { buildSubscriber, insertSubscribers } from './factories.ts';
import { pdfPages } from './pdf-text.ts';
import { readSheet } from './xlsx.ts';

const ctx = useTestApp();

/** Sets the clock to `iso` and signs in afresh (tokens are dated by the clock). */
async function at(iso: string, app = ctx.app) {
  ctx.clock.advance(Date.parse(iso) - ctx.clock.now().getTime());
  const response = await app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: 'admin@example.org', password: 'admin-password-1' },
  });
  const token = (response.json() as { id_token: string }).id_token;
  return (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

/** A sale of one agenda, recorded as made at the instant `iso`. */
async function saleMadeAt(api: Awaited<ReturnType<typeof at>>, iso: string) {
  const [buyer] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Horloge' })]);
  const product = await api('POST', '/api/products', {
    name: `Agenda ${iso}`,
    euroPrice: 12.5,
    swissPrice: 14,
    active: true,
    currentStock: 5,
    minStockAlert: 1,
  });
  const created = await api('POST', '/api/sales', {
    subscriberId: buyer?.id,
    fullName: 'M. Horloge',
    association: '',
    currencySymbol: '€',
    discountPercentage: 0,
    donation: 0,
    deliveryCharge: 0,
    includeThanks: false,
    includePaymentTerms: true,
    paymentTermDays: 30,
    swissSale: false,
    addr1: '1 rue du Temps',
    addr2: '',
    addr3: '',
    town: 'Paris',
    postcode: '75001',
    orderNumber: '',
    deliveryAddress: '',
    country: 'France',
    notes: '',
    items: [
      {
        productId: (product.json() as { id: number }).id,
        productName: 'x',
        quantity: 1,
        euroUnitPrice: 12.5,
        swissUnitPrice: 14,
      },
    ],
  });
  expect(created.statusCode).toBe(201);
  const id = (created.json() as { id: number }).id;
  await ctx.database.db.execute(sql`update sales set added_on = ${iso}::timestamptz where id = ${id}`);
  return id;
}

describe('calendar days in the organisation time zone', () => {
  it('accepts a gift dated 1 January at 00:30 in Paris, which is still 31 December in UTC', async () => {
    const [donor] = await insertSubscribers(ctx, [buildSubscriber()]);
    const gift = (api: Awaited<ReturnType<typeof at>>, donationDate: string) =>
      api('POST', '/api/donations', { subid: donor?.id, amount: 50, donationDate, notes: '' });

    // 31 December 23:30 in Paris (22:30 UTC): 1 January is still tomorrow.
    const lateOnNewYearsEve = await at('2026-12-31T22:30:00Z');
    const early = await gift(lateOnNewYearsEve, '2027-01-01');
    expect(early.statusCode).toBe(400);
    expect(early.json().errors).toEqual([
      { path: 'donationDate', message: 'The donation date cannot be in the future.' },
    ]);

    // 1 January 00:30 in Paris (23:30 UTC on 31 December): it is 1 January, the gift is of 2027.
    const justAfterMidnight = await at('2026-12-31T23:30:00Z');
    const onTime = await gift(justAfterMidnight, '2027-01-01');
    expect(onTime.statusCode).toBe(201);
  });

  it('follows ORG_TIMEZONE: in UTC, 23:30 on 31 December is still the old year', async () => {
    const [donor] = await insertSubscribers(ctx, [buildSubscriber()]);
    const utcApp = await ctx.build({ config: { ORG_TIMEZONE: 'UTC' } });
    const api = await at('2026-12-31T23:30:00Z', utcApp);
    const gift = await api('POST', '/api/donations', {
      subid: donor?.id,
      amount: 50,
      donationDate: '2027-01-01',
      notes: '',
    });
    expect(gift.statusCode).toBe(400);
  });

  it('dates the invoice, its due date and the products export by the Paris day', async () => {
    const api = await at('2026-12-31T23:30:00Z');
    const id = await saleMadeAt(api, '2026-12-31T23:30:00Z');
    const invoice = await api('GET', `/api/sales/receipt/${id}`);
    expect(invoice.statusCode).toBe(200);
    const text = (await pdfPages(invoice.rawPayload)).join('\n');
    expect(text).toContain('Date : 1er janvier 2027');
    expect(text).toContain('soit au plus tard le 31 janvier 2027');

    const exported = await api('GET', '/api/products/export');
    expect(exported.headers['content-disposition']).toContain('products-export-2027-01-01.csv');
  });

  it('makes the sales search days whole Paris days, across the spring change to summer time', async () => {
    // 29 March 2026, 23:30 in Paris (summer time, 21:30 UTC); and 30 March 00:30 (22:30 UTC).
    const api = await at('2026-04-01T10:00:00Z');
    const lateOn29 = await saleMadeAt(api, '2026-03-29T21:30:00Z');
    const earlyOn30 = await saleMadeAt(api, '2026-03-29T22:30:00Z');
    const idsOf = async (query: string) => {
      const found = await api('GET', `/api/sales?${query}&listfrom=1&listlength=50`);
      expect(found.statusCode).toBe(200);
      const body = found.json() as { models?: Array<{ id: number }> } | Array<{ id: number }>;
      const rows = Array.isArray(body) ? body : (body.models ?? []);
      return rows.map((row) => row.id).sort((a, b) => a - b);
    };
    expect(await idsOf('addedafter=2026-03-29&addedbefore=2026-03-30')).toEqual([lateOn29]);
    expect(await idsOf('addedafter=2026-03-30')).toEqual([earlyOn30]);
  });

  it('counts the sales totals of a day by the Paris day, on the autumn change back to winter time', async () => {
    // 25 October 2026 lasts 25 hours in Paris: 22:30 UTC is 23:30 that day, 23:30 UTC is the 26th.
    const api = await at('2026-11-01T10:00:00Z');
    await saleMadeAt(api, '2026-10-24T22:30:00Z'); // 00:30 on the 25th (summer time, UTC+2)
    await saleMadeAt(api, '2026-10-25T22:30:00Z'); // 23:30 on the 25th (winter time, UTC+1)
    await saleMadeAt(api, '2026-10-25T23:30:00Z'); // 00:30 on the 26th
    const totals = await api('GET', '/api/sales/salecount?from=2026-10-25&to=2026-10-25');
    expect(totals.statusCode).toBe(200);
    const lines = totals.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
  });

  it('puts a gift of 31 December 23:30 and one of 1 January 00:30 in Paris in their own receipt years', async () => {
    const [donor] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Sylvestre' })]);
    const gift = async (api: Awaited<ReturnType<typeof at>>, amount: number, donationDate: string) => {
      const created = await api('POST', '/api/donations', {
        subid: donor?.id,
        amount,
        donationDate,
        notes: '',
      });
      expect(created.statusCode).toBe(201);
      return (created.json() as { id: number }).id;
    };

    // 31 December 23:30 in Paris (22:30 UTC): the day is still 31 December 2026.
    const lateOnNewYearsEve = await at('2026-12-31T22:30:00Z');
    await gift(lateOnNewYearsEve, 11, '2026-12-31');
    // 1 January 00:30 in Paris (23:30 UTC on 31 December): the day is 1 January 2027.
    const justAfterMidnight = await at('2026-12-31T23:30:00Z');
    await gift(justAfterMidnight, 27, '2027-01-01');

    // The annual run of 2027 covers the donor of the gift of 1 January 00:30.
    const run = await justAfterMidnight('POST', '/api/donations/annual-runs', { year: 2027 });
    expect(run.statusCode).toBe(202);
    expect(run.json()).toMatchObject({ year: 2027, total: 1 });

    const annual = async (year: number) => {
      const answer = await justAfterMidnight('GET', `/api/donations/receipt/${donor?.id}/${year}`);
      expect(answer.statusCode).toBe(200);
      return (await pdfPages(answer.rawPayload)).join('\n');
    };
    const of2026 = await annual(2026);
    expect(of2026).toContain('11,00 €');
    expect(of2026).not.toContain('27,00 €');
    const of2027 = await annual(2027);
    expect(of2027).toContain('27,00 €');
    expect(of2027).not.toContain('11,00 €');
    // Issued at 00:30 on 1 January in Paris: dated that day, not the UTC 31 December.
    expect(of2026).toContain('le 1er janvier 2027');
    expect(of2027).toContain('le 1er janvier 2027');
  });

  it('makes the subscriber search days whole Paris days, 23:30 on the day of the change to summer time', async () => {
    const api = await at('2026-04-01T10:00:00Z');
    const [lateOn29, earlyOn30] = await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Equinoxe', firstName: 'Tard' }),
      buildSubscriber({ lastName: 'Equinoxe', firstName: 'Tot' }),
    ]);
    const addedAt = (id: number | undefined, iso: string) =>
      ctx.database.db.execute(sql`update subscribers set added_on = ${iso}::timestamptz where id = ${id}`);
    await addedAt(lateOn29?.id, '2026-03-29T21:30:00Z'); // 23:30 on 29 March in Paris (UTC+2)
    await addedAt(earlyOn30?.id, '2026-03-29T22:30:00Z'); // 00:30 on 30 March in Paris
    const idsOf = async (query: string) => {
      const found = await api('GET', `/api/subscribers/?name=equinoxe&${query}`);
      expect(found.statusCode).toBe(200);
      return (found.json() as { models: Array<{ id: number }> }).models.map((row) => row.id).sort();
    };
    // `addedafter` includes its day, `addedbefore` excludes its day.
    expect(await idsOf('addedafter=2026-03-29&addedbefore=2026-03-30')).toEqual([lateOn29?.id]);
    expect(await idsOf('addedafter=2026-03-30')).toEqual([earlyOn30?.id]);
    expect(await idsOf('addedbefore=2026-03-30')).toEqual([lateOn29?.id]);

    // The export takes the same days.
    const exported = await api(
      'GET',
      '/api/subscribers/export?emailsOnly=true&name=equinoxe&addedafter=2026-03-30',
    );
    expect(exported.statusCode).toBe(200);
    const { rows } = await readSheet(exported.rawPayload);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['Tot']);
  });

  it('makes the audit days whole Paris days, on the autumn change back to winter time', async () => {
    // 25 October 2026 lasts 25 hours in Paris: 22:30 UTC is 23:30 that day, 23:30 UTC is the 26th.
    const lateOn25 = await at('2026-10-25T22:30:00Z');
    expect((await lateOn25('POST', '/api/tags', { name: 'Automne' })).statusCode).toBe(201);
    const earlyOn26 = await at('2026-10-25T23:30:00Z');
    expect((await earlyOn26('POST', '/api/tags', { name: 'Hiver' })).statusCode).toBe(201);
    const labels = async (query: string) => {
      const found = await earlyOn26('GET', `/api/audit?entityType=reference_list_item&${query}`);
      expect(found.statusCode).toBe(200);
      return (found.json() as { models: Array<{ entityLabel: string }> }).models.map((e) => e.entityLabel);
    };
    expect(await labels('from=2026-10-25&to=2026-10-25')).toEqual(['Automne']);
    expect(await labels('from=2026-10-26')).toEqual(['Hiver']);
    expect(await labels('to=2026-10-25')).toEqual(['Automne']);
  });

  it("tells the client the organisation's zone in the id token's zoneinfo claim", async () => {
    const zurich = await ctx.build({ config: { ORG_TIMEZONE: 'Europe/Zurich' } });
    const answer = await zurich.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'admin@example.org', password: 'admin-password-1' },
    });
    const idToken = (answer.json() as { id_token: string }).id_token;
    expect(decodeJwt(idToken).zoneinfo).toBe('Europe/Zurich');
  });
});
