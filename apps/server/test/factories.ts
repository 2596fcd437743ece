import type { SaveSubscriberInput } from '@back-office/contract/subscribers';
import { fakerFR as faker } from '@faker-js/faker';
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
