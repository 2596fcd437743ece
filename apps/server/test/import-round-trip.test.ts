/**
 * Round trip (docs/decisions/018): 10,000 subscribers with their donations and sales are exported with
 * our own exports (XLSX for subscribers and donations, the itemised CSV for sales), the database is
 * emptied, the files are imported back (subscribers first, then the donations and the sales, whose
 * donors and buyers are found by email or by name and postcode; the products by name, created as the
 * sales name them), and the same exports of the new register hold every field as before, but the ids
 * and who added what when.
 */
import type { Import } from '@back-office/contract/imports';
import { computeSaleTotalsInCents } from '@back-office/contract/sale-totals';
import { fakerFR as faker } from '@faker-js/faker';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { centsToNumeric } from '../src/lib/money.ts';
import { donations } from '../src/modules/donations/donations.table.ts';
import { products } from '../src/modules/products/products.table.ts';
import { tags } from '../src/modules/reference-lists/reference-lists.table.ts';
import { saleLines, sales } from '../src/modules/sales/sales.table.ts';
import { toSubscriberColumns } from '../src/modules/subscribers/subscribers.service.ts';
import { subscribers, subscriberTags } from '../src/modules/subscribers/subscribers.table.ts';
import { asAdministrator, type TestApi } from './api.ts';
import { bearer, login, resetDatabase, useTestApp } from './context.ts';
import { readSheet } from './xlsx.ts';

const ctx = useTestApp();
const SUBSCRIBERS = 10_000;
/** Columns that name the record or its author rather than the person: not carried by an import. */
const NOT_CARRIED = new Set([
  'Id',
  'Donation id',
  'Subscriber id',
  'Receipt n°',
  'Added by',
  'Added on',
  'subscriberId',
  'productId',
  'addedBy',
]);
/** The old tool's sale numbers start here; the import keeps them. */
const FIRST_SALE_NUMBER = 1001;

/** A register of {@link SUBSCRIBERS} varied subscribers, one in three with two donations, written directly. */
async function seedRegister() {
  faker.seed(18);
  const db = ctx.database.db;
  const tagRows = await db
    .insert(tags)
    .values([{ name: 'Bénévole' }, { name: 'Donateur fidèle' }, { name: 'Presse' }])
    .returning();
  const catalogue = await db
    .insert(products)
    .values(
      ['Agenda 2025', 'Livre « Le lac »', 'Tasse émaillée', 'Affiche A2', 'Carte de vœux'].map(
        (name, index) => ({
          name,
          euroPrice: (8 + index * 3.5).toFixed(2),
          swissPrice: (9 + index * 4).toFixed(2),
        }),
      ),
    )
    .returning();
  let nextSaleNumber = FIRST_SALE_NUMBER;
  for (let start = 0; start < SUBSCRIBERS; start += 500) {
    const batch = Array.from({ length: Math.min(500, SUBSCRIBERS - start) }, (_, offset) => {
      const index = start + offset;
      const withEmail = index % 7 !== 0;
      return toSubscriberColumns({
        id: 0,
        title: index % 3 === 0 ? 'Mme' : index % 3 === 1 ? 'M.' : '',
        firstName: faker.person.firstName(),
        // Unique names: a donor without an email is found by name and postcode.
        lastName: `${faker.person.lastName()} ${index}`,
        email: withEmail ? `personne-${index}@example.org` : '',
        phone: index % 2 ? faker.phone.number({ style: 'national' }) : '',
        mobile: '',
        fax: '',
        address1: faker.location.streetAddress(),
        address2: index % 5 === 0 ? 'Bâtiment B' : '',
        address3: '',
        town: faker.location.city(),
        postcode: faker.location.zipCode(),
        billingAddress: index % 11 === 0 ? `${faker.location.streetAddress()}\n75011 Paris` : '',
        notes: index % 13 === 0 ? 'Préfère le courrier; "pas d’appel"' : '',
        association: index % 17 === 0 ? 'Amis du lac' : '',
        inactive: index % 19 === 0,
        inactiveReason: index % 19 === 0 ? 'Déménagé' : '',
        rum: index % 23 === 0 ? `RUM-${index}` : '',
        countryId: index % 4 === 0 ? 2 : 1,
        paymentMethodId: index % 2 ? 1 : 0,
        categoryId: 0,
        subscriptionTypeId: 0,
        currencyId: index % 4 === 0 ? 2 : 1,
        recommendedBy: '',
        copies: index % 3,
        bank: '',
        iban: '',
        amount: (index % 90) + 0.5,
        startDate: index % 2 ? '2023-01-15' : null,
        endDate: null,
        tags: [],
        onMailChimpList: index % 2 === 0,
        newsletterEmail: '',
        emailConsentDate: withEmail && index % 3 === 0 ? '2024-05-02' : null,
        emailConsentSource:
          withEmail && index % 3 === 0 ? (index % 2 ? 'Formulaire web' : 'Bulletin papier') : '',
      });
    });
    const rows = await db
      .insert(subscribers)
      .values(batch.map((columns) => ({ ...columns, addedBy: 'Ancien outil' })))
      .returning({ id: subscribers.id });
    const links = rows.flatMap(({ id }, offset) =>
      (start + offset) % 5 === 0 ? [{ subscriberId: id, tagId: tagRows[(start + offset) % 3]?.id ?? 0 }] : [],
    );
    if (links.length > 0) await db.insert(subscriberTags).values(links);
    const gifts = rows.flatMap(({ id }, offset) =>
      (start + offset) % 3 === 0
        ? [
            {
              subscriberId: id,
              amount: '25.00',
              currencyId: 1,
              donationDate: '2024-02-10',
              notes: '',
              addedBy: 'x',
            },
            {
              subscriberId: id,
              amount: '12.50',
              currencyId: 1,
              donationDate: '2025-06-01',
              notes: 'Virement',
              addedBy: 'x',
            },
          ]
        : [],
    );
    // Gifts are in the donor's currency.
    const currencyOf = new Map(batch.map((columns, offset) => [rows[offset]?.id, columns.currencyId]));
    if (gifts.length > 0) {
      await db
        .insert(donations)
        .values(gifts.map((gift) => ({ ...gift, currencyId: currencyOf.get(gift.subscriberId) ?? 1 })));
    }
    await seedSales(batch, rows, start);
  }
  await db.execute(sql`insert into sale_counter (id, last_ref) values (1, ${nextSaleNumber - 1})`);

  /** One buyer in four gets a sale of one to three lines in their currency, some with discount, delivery and donation. */
  async function seedSales(
    batch: Array<ReturnType<typeof toSubscriberColumns>>,
    rows: Array<{ id: number }>,
    start: number,
  ) {
    const made = batch.flatMap((columns, offset) => {
      const index = start + offset;
      const buyer = rows[offset];
      if (index % 4 !== 1 || !buyer) return [];
      const swissSale = columns.currencyId === 2;
      const lines = Array.from({ length: (index % 3) + 1 }, (_, line) => {
        const product = catalogue[(index + line) % catalogue.length];
        if (!product) throw new Error('no product');
        const unitPrice = Number(swissSale ? product.swissPrice : product.euroPrice);
        return { product, quantity: ((index + line) % 4) + 1, unitPrice };
      });
      const figures = {
        discountPercentage: index % 8 === 1 ? 5 : 0,
        donation: index % 5 === 1 ? 10 : 0,
        deliveryCharge: index % 3 === 1 ? 4.5 : 0,
      };
      const totals = computeSaleTotalsInCents({ lines, ...figures });
      const addedOn = new Date(Date.UTC(2024, index % 12, (index % 27) + 1, 10));
      const sale = {
        ref: nextSaleNumber++,
        subscriberId: buyer.id,
        fullName: [columns.title, columns.firstName, columns.lastName].filter(Boolean).join(' '),
        association: columns.association,
        currencyId: columns.currencyId,
        swissSale,
        discountPercentage: figures.discountPercentage.toFixed(6),
        subTotal: centsToNumeric(totals.subTotal),
        discountAmount: centsToNumeric(totals.discount),
        donation: centsToNumeric(totals.donation),
        deliveryCharge: centsToNumeric(totals.deliveryCharge),
        total: centsToNumeric(totals.total),
        includeThanks: false,
        includePaymentTerms: false,
        paymentTermDays: 30,
        addr1: columns.address1,
        addr2: columns.address2,
        addr3: columns.address3,
        town: columns.town,
        postcode: columns.postcode,
        country: columns.countryId === 2 ? 'Suisse' : 'France',
        orderNumber: index % 9 === 1 ? `BC-${index}` : '',
        notes: '',
        addedBy: 'Ancien outil',
        addedOn,
        invoiceIssuedAt: addedOn,
      };
      return [{ sale, lines, totals }];
    });
    if (made.length === 0) return;
    const inserted = await db
      .insert(sales)
      .values(made.map(({ sale }) => sale))
      .returning({ id: sales.id });
    await db.insert(saleLines).values(
      made.flatMap(({ lines, totals }, index) =>
        lines.map((line, position) => ({
          saleId: inserted[index]?.id ?? 0,
          position: position + 1,
          productId: line.product.id,
          productName: line.product.name,
          quantity: line.quantity,
          euroUnitPrice: line.product.euroPrice,
          swissUnitPrice: line.product.swissPrice,
          unitPrice: line.unitPrice.toFixed(2),
          lineTotal: centsToNumeric(totals.lineTotals[position] ?? 0),
        })),
      ),
    );
  }
}

async function download(url: string) {
  const response = await ctx.app.inject({ method: 'GET', url, headers: bearer((await login(ctx)).id_token) });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return response.rawPayload;
}

/** The sheet's rows as objects without the columns an import does not carry, in a stable order. */
async function comparable(bytes: Buffer) {
  const { rows } = await readSheet(bytes);
  const [headers = [], ...data] = rows;
  const records = data.map((row) =>
    Object.fromEntries(
      headers
        .map((header, index) => [String(header), row[index] ?? null] as const)
        .filter(([header]) => !NOT_CARRIED.has(header)),
    ),
  );
  return records.map((record) => JSON.stringify(record)).sort();
}

/** A CSV export's rows as objects without the columns an import does not carry, in a stable order. */
function comparableCsv(bytes: Buffer) {
  const parsed = Papa.parse<Record<string, string>>(bytes.toString('utf8').replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  });
  return parsed.data
    .map((record) =>
      JSON.stringify(
        Object.fromEntries(Object.entries(record).filter(([header]) => !NOT_CARRIED.has(header))),
      ),
    )
    .sort();
}

async function importFile(
  api: TestApi,
  name: string,
  bytes: Buffer,
  kind: string,
  options: Record<string, unknown> = {},
) {
  const boundary = '----round-trip';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await ctx.app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: {
      ...bearer((await login(ctx)).id_token),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const created = uploaded.json() as Import;
  await api.expectStatus(200, 'PUT', `/api/imports/${created.id}/mapping`, {
    mapping: created.mapping,
    options: { ...created.options, createMissingReferences: true, ...options },
  });
  const checked = await api.expectStatus<{
    valid: number;
    invalid: number;
    duplicates: number;
    rows: unknown[];
  }>(200, 'POST', `/api/imports/${created.id}/dry-run?status=invalid`);
  expect(checked, JSON.stringify(checked.rows.slice(0, 3))).toMatchObject({ invalid: 0, duplicates: 0 });
  await api.expectStatus(202, 'POST', `/api/imports/${created.id}/commit`, { decisions: [] });
  await ctx.app.jobs.runDue();
  return api.expectStatus<Import>(200, 'GET', `/api/imports/${created.id}`);
}

describe('round trip through our own exports', () => {
  it(`imports ${SUBSCRIBERS.toLocaleString('en')} exported subscribers, their donations and their sales into an empty database with every field equal`, async () => {
    await seedRegister();
    const subscriberExport = await download('/api/subscribers/export');
    const donationExport = await download('/api/donations/export?isdetailed=true');
    const saleExport = await download('/api/sales/export?isdetailed=true');
    const before = {
      subscribers: await comparable(subscriberExport),
      donations: await comparable(donationExport),
      saleLines: comparableCsv(saleExport),
      sales: comparableCsv(await download('/api/sales/export')),
    };
    expect(before.subscribers).toHaveLength(SUBSCRIBERS);
    expect(before.sales).toHaveLength(SUBSCRIBERS / 4);

    await resetDatabase(ctx.database);
    const api = await asAdministrator(ctx);
    const people = await importFile(api, 'abonnes.xlsx', subscriberExport, 'subscribers');
    expect(people).toMatchObject({ status: 'committed', created: SUBSCRIBERS });
    const gifts = await importFile(api, 'dons.xlsx', donationExport, 'donations');
    expect(gifts).toMatchObject({ status: 'committed', created: before.donations.length });
    const bought = await importFile(api, 'ventes.csv', saleExport, 'sales', {
      dateFormat: 'YYYY-MM-DD',
      decimalSeparator: '.',
    });
    expect(bought).toMatchObject({ status: 'committed', created: before.sales.length });

    expect(await comparable(await download('/api/subscribers/export'))).toEqual(before.subscribers);
    expect(await comparable(await download('/api/donations/export?isdetailed=true'))).toEqual(
      before.donations,
    );
    expect(comparableCsv(await download('/api/sales/export?isdetailed=true'))).toEqual(before.saleLines);
    expect(comparableCsv(await download('/api/sales/export'))).toEqual(before.sales);
  }, 300_000);
});
