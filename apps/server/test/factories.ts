import type { SaveProductInput } from '@back-office/contract/products';
import type { ReferenceListKey } from '@back-office/contract/reference-lists';
import type { CreateSaleInput } from '@back-office/contract/sales';
import type { SaveSubscriberInput } from '@back-office/contract/subscribers';
import { fakerFR as faker } from '@faker-js/faker';
import { asAdministrator } from './api.ts';
import { bearer, login, type TestContext } from './context.ts';

let sequence = 0;

/** A valid subscriber save payload with French data and a unique email; EURO (id 1) as currency. */
export function buildSubscriber(overrides: Partial<SaveSubscriberInput> = {}): SaveSubscriberInput {
  sequence += 1;
  return {
    title: faker.person.prefix(),
    firstName: faker.person.firstName(),
    lastName: faker.person.lastName(),
    email: `subscriber-${sequence}-${faker.string.alphanumeric(6).toLowerCase()}@example.org`,
    address1: faker.location.streetAddress(),
    town: faker.location.city(),
    postcode: faker.location.zipCode(),
    currencyId: 1,
    countryId: 1,
    copies: 1,
    amount: 25,
    tags: [],
    ...overrides,
  };
}

/** Creates subscribers through the API as the Administrator and returns the saved records. */
export async function insertSubscribers(ctx: TestContext, payloads: SaveSubscriberInput[]) {
  const headers = bearer((await login(ctx)).id_token);
  const saved = [];
  for (const payload of payloads) {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/subscribers', headers, payload });
    if (response.statusCode !== 201) throw new Error(`create subscriber failed: ${response.body}`);
    saved.push(response.json() as { id: number; version: number } & SaveSubscriberInput);
  }
  return saved;
}

/** A valid product: a unique name, 12,50 € / 14,00 CHF, 100 in stock, alert at 5. */
export function buildProduct(overrides: Partial<SaveProductInput> = {}): SaveProductInput {
  sequence += 1;
  return {
    name: `Produit ${sequence} ${faker.commerce.productName()}`.slice(0, 200),
    euroPrice: 12.5,
    swissPrice: 14,
    active: true,
    currentStock: 100,
    minStockAlert: 5,
    ...overrides,
  };
}

/** Creates a product through the API as the Administrator; resolves with the saved product. */
export async function insertProduct(ctx: TestContext, overrides: Partial<SaveProductInput> = {}) {
  const api = await asAdministrator(ctx);
  return api.expectStatus<{ id: number; version: number } & SaveProductInput>(
    201,
    'POST',
    '/api/products',
    buildProduct(overrides),
  );
}

/**
 * Gives subscriber `id` the last name `lastName` through the form as the Administrator: the record read,
 * then sent back with every field and its version.
 */
export async function renameSubscriber(ctx: TestContext, id: number, lastName: string) {
  const api = await asAdministrator(ctx);
  const record = await api.expectStatus<Record<string, unknown>>(200, 'GET', `/api/subscribers/${id}`);
  const { addedBy: _addedBy, addedOn: _addedOn, ...fields } = record;
  await api.expectStatus(200, 'PATCH', `/api/subscribers/${id}`, { ...fields, lastName });
}

/** Records a gift through the API as the Administrator: 25 € on 2025-06-01 unless told otherwise. */
export async function insertDonation(
  ctx: TestContext,
  subid: number,
  overrides: { amount?: number; donationDate?: string; notes?: string } = {},
) {
  const api = await asAdministrator(ctx);
  return api.expectStatus<{ id: number }>(201, 'POST', '/api/donations', {
    subid,
    amount: 25,
    donationDate: '2025-06-01',
    ...overrides,
  });
}

/**
 * A valid sale of `items` (product, quantity, the catalogue's prices) to `subscriberId`, in euros,
 * with a French address; `overrides` replaces any other field.
 */
export function buildSale(
  subscriberId: number,
  items: Array<{ productId: number; quantity: number; euroUnitPrice: number; swissUnitPrice: number }>,
  overrides: Partial<CreateSaleInput> = {},
): CreateSaleInput {
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
    items,
    ...overrides,
  };
}

/** Creates a sale through the API as the Administrator; resolves with the saved sale. */
export async function insertSale(ctx: TestContext, sale: CreateSaleInput) {
  const api = await asAdministrator(ctx);
  return api.expectStatus<{ id: number; ref: number; total: number }>(201, 'POST', '/api/sales', sale);
}

/** Adds an item to a reference list (`cats`, `tags`, `ctries` …) through the API as the Administrator. */
export async function insertReferenceItem(
  ctx: TestContext,
  list: ReferenceListKey,
  item: { name: string; order?: number; symbol?: string; directDebit?: boolean },
) {
  const api = await asAdministrator(ctx);
  return api.expectStatus<{ id: number; name: string }>(201, 'POST', `/api/${list}`, item);
}

/**
 * The audience of the bulk-email tests: in Lyon, Élodie (Mme) and Marc (4 copies) with an address, Sans
 * without one, Parti deleted (through `deleteSubscriber`, so as the app deletes); Zoé lives in Genève.
 * Returns the five saved records in that order.
 */
export async function insertLyonAudience(
  ctx: TestContext,
  deleteSubscriber: (id: number) => Promise<unknown>,
) {
  const saved = await insertSubscribers(ctx, [
    buildSubscriber({
      title: 'Mme',
      firstName: 'Élodie',
      lastName: 'Dupont',
      town: 'Lyon',
      email: 'elodie@example.org',
    }),
    buildSubscriber({
      title: '',
      firstName: 'Marc',
      lastName: 'Durand',
      town: 'Lyon',
      email: 'marc@example.org',
      copies: 4,
    }),
    buildSubscriber({ firstName: 'Sans', lastName: 'Adresse', town: 'Lyon', email: '' }),
    buildSubscriber({ firstName: 'Parti', lastName: 'Ailleurs', town: 'Lyon', email: 'parti@example.org' }),
    buildSubscriber({ firstName: 'Zoé', lastName: 'Martin', town: 'Genève', email: 'zoe@example.org' }),
  ]);
  const deleted = saved[3];
  if (!deleted) throw new Error('insertLyonAudience: the subscribers were not saved');
  await deleteSubscriber(deleted.id);
  return saved;
}
