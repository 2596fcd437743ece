import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { queryRows } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import { createAuditRepository } from '../audit/audit.repository.ts';
import { createAuditService } from '../audit/audit.service.ts';
import { REFERENCE_LISTS } from './reference-lists.definitions.ts';
import { createReferenceListsRepository } from './reference-lists.repository.ts';
import { seededCountries, seedReferenceData } from './reference-lists.seed.ts';
import { createReferenceListsService } from './reference-lists.service.ts';

const ctx = useTestApp();

async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) {
  const headers = bearer((await login(ctx)).id_token);
  return ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function insertSubscriber(columns: Record<string, number>) {
  const names = Object.keys(columns);
  await ctx.database.db.execute(
    sql.raw(
      `insert into subscribers (first_name, last_name, currency_id${names.map((name) => `, ${name}`).join('')})
       values ('Zoé', 'Martin', 1${names.map((name) => `, ${columns[name]}`).join('')}) returning id`,
    ),
  );
}

describe('reference data on a new database', () => {
  it('has the euro, a Swiss franc, the countries in French and payment methods with a direct debit', async () => {
    const currencies = (await call('GET', '/api/currencies')).json();
    expect(currencies).toEqual([
      { id: 1, name: 'EURO', symbol: '€', isoCode: 'EUR' },
      { id: 2, name: 'Swiss Franc', symbol: 'CHF', isoCode: 'CHF' },
    ]);
    const countries = (await call('GET', '/api/ctries')).json() as Array<{ name: string; order: number }>;
    expect(countries.slice(0, 6).map((country) => country.name)).toEqual([
      'France',
      'Suisse',
      'Belgique',
      'Luxembourg',
      'Allemagne',
      'Italie',
    ]);
    expect(countries.length).toBeGreaterThan(240);
    expect(countries.map((country) => country.name)).toContain('Royaume-Uni');
    const methods = (await call('GET', '/api/pmethods')).json() as Array<{
      name: string;
      directDebit: boolean;
    }>;
    expect(methods.filter((method) => method.directDebit).map((method) => method.name)).toEqual([
      'Prélèvement SEPA',
    ]);
  });

  it('is loaded once: a restart neither duplicates nor brings back what staff changed', async () => {
    const euro = 1;
    await call('PATCH', `/api/currencies/${euro}`, { name: 'Euro (EUR)', symbol: '€' });
    await call('DELETE', '/api/currencies/2');
    await seedReferenceData(ctx.database.db);
    expect((await call('GET', '/api/currencies')).json()).toEqual([
      { id: 1, name: 'Euro (EUR)', symbol: '€', isoCode: 'EUR' },
    ]);
  });

  it('gives every seeded country its ISO 3166-1 alpha-2 code', async () => {
    const countries = (await call('GET', '/api/ctries')).json() as Array<{ name: string; isoCode: string }>;
    expect(countries.slice(0, 6).map(({ name, isoCode }) => [name, isoCode])).toEqual([
      ['France', 'FR'],
      ['Suisse', 'CH'],
      ['Belgique', 'BE'],
      ['Luxembourg', 'LU'],
      ['Allemagne', 'DE'],
      ['Italie', 'IT'],
    ]);
    expect(countries).toHaveLength(seededCountries().length);
    expect(countries.filter((country) => !/^[A-Z]{2}$/.test(country.isoCode))).toEqual([]);
    expect(new Set(countries.map((country) => country.isoCode)).size).toBe(countries.length);
    expect(countries.find((country) => country.name === 'Royaume-Uni')?.isoCode).toBe('GB');
  });
});

describe.each([
  ['/api/subs', { name: 'Abonnement annuel' }],
  ['/api/cats', { name: 'Bienfaiteur' }],
  ['/api/ctries', { name: 'Groenland bis' }],
  ['/api/pmethods', { name: 'Paypal' }],
  ['/api/currencies', { name: 'Pound sterling', symbol: '£' }],
  ['/api/tags', { name: 'VIP' }],
])('%s', (path, item) => {
  it('creates, renames and deletes an item', async () => {
    const created = await call('POST', path, item);
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(created.json()).toMatchObject({ id, ...item });

    const renamed = await call('PATCH', `${path}/${id}`, { ...item, id, name: `${item.name} 2` });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id, name: `${item.name} 2` });
    expect((await call('GET', path)).json()).toContainEqual(renamed.json());

    expect((await call('DELETE', `${path}/${id}`)).statusCode).toBe(204);
    expect((await call('GET', path)).json()).not.toContainEqual(renamed.json());
  });

  it('refuses a duplicate name in any case (409), an unknown id (404) and an empty name (400)', async () => {
    const created = (await call('POST', path, item)).json();
    const duplicate = await call('POST', path, { ...item, name: item.name.toUpperCase() });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('reference_lists.name_taken');
    expect(duplicate.json().errors[0].path).toBe('name');

    const other = (await call('POST', path, { ...item, name: `${item.name} bis` })).json();
    const renameOnto = await call('PATCH', `${path}/${other.id}`, {
      ...item,
      name: ` ${item.name.toLowerCase()} `,
    });
    expect(renameOnto.statusCode).toBe(409);

    expect((await call('PATCH', `${path}/99999`, item)).statusCode).toBe(404);
    expect((await call('DELETE', `${path}/99999`)).statusCode).toBe(404);
    const empty = await call('POST', path, { ...item, name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toContainEqual({ path: 'name', message: 'Name is required' });
    expect(created.id).toBeGreaterThan(0);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.app.inject({ url: path })).statusCode).toBe(401);
  });
});

describe('list rules', () => {
  it('needs 4 characters for subscription types, categories, payment methods and currencies', async () => {
    for (const path of ['/api/subs', '/api/cats', '/api/pmethods']) {
      const response = await call('POST', path, { name: 'abc' });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().errors).toContainEqual({ path: 'name', message: 'Name is required' });
    }
    expect((await call('POST', '/api/currencies', { name: 'Yen', symbol: '¥' })).statusCode).toBe(400);
    expect((await call('POST', '/api/ctries', { name: 'Io' })).statusCode).toBe(201);
    expect((await call('POST', '/api/tags', { name: 'A' })).statusCode).toBe(201);
  });

  it('needs a currency symbol', async () => {
    const response = await call('POST', '/api/currencies', { name: 'Pound sterling' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path: 'symbol', message: 'Symbol is required' });
  });

  it('gives a created or edited country order 100', async () => {
    const created = (await call('POST', '/api/ctries', { name: 'Atlantide', order: 3 })).json();
    expect(created.order).toBe(100);
    const france = ((await call('GET', '/api/ctries')).json() as Array<{ id: number; name: string }>)[0];
    const edited = await call('PATCH', `/api/ctries/${france?.id}`, { id: france?.id, name: 'France' });
    expect(edited.json()).toMatchObject({ name: 'France', order: 100 });
  });

  it('lists tags by name, case-insensitive', async () => {
    for (const name of ['zèbre', 'Alpha', 'beta']) await call('POST', '/api/tags', { name });
    expect(
      ((await call('GET', '/api/tags')).json() as Array<{ name: string }>).map((tag) => tag.name),
    ).toEqual(['Alpha', 'beta', 'zèbre']);
  });

  it('keeps a payment method’s direct-debit flag when an edit leaves it out', async () => {
    const created = (
      await call('POST', '/api/pmethods', { name: 'Prélèvement trimestriel', directDebit: true })
    ).json();
    const edited = await call('PATCH', `/api/pmethods/${created.id}`, {
      id: created.id,
      name: 'Prélèvement mensuel',
    });
    expect(edited.json()).toMatchObject({ name: 'Prélèvement mensuel', directDebit: true });
  });

  it('refuses to delete an item that subscribers use, saying how many', async () => {
    const france = 1;
    await insertSubscriber({ country_id: france });
    await insertSubscriber({ country_id: france });
    const response = await call('DELETE', `/api/ctries/${france}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'reference_lists.in_use',
      detail: "The country 'France' is used by 2 subscribers and cannot be deleted.",
    });
    expect(((await call('GET', '/api/ctries')).json() as Array<{ id: number }>)[0]?.id).toBe(france);

    const tag = (await call('POST', '/api/tags', { name: 'VIP' })).json();
    await ctx.database.db.execute(
      sql.raw(`insert into subscriber_tags (subscriber_id, tag_id) values (1, ${tag.id})`),
    );
    const tagResponse = await call('DELETE', `/api/tags/${tag.id}`);
    expect(tagResponse.statusCode).toBe(409);
    expect(tagResponse.json().detail).toBe("The tag 'VIP' is used by 1 subscriber and cannot be deleted.");
  });
});

describe('ISO codes of countries and currencies', () => {
  const countriesByName = async () =>
    new Map(
      (
        (await call('GET', '/api/ctries')).json() as Array<{
          id: number;
          name: string;
          isoCode: string | null;
        }>
      ).map((country) => [country.name, country]),
    );

  it('keeps a country’s code on create and edit, unchanged when left out, removed when null or empty', async () => {
    const greenland = (await countriesByName()).get('Groenland');
    expect(greenland?.isoCode).toBe('GL');
    const freed = await call('PATCH', `/api/ctries/${greenland?.id}`, { name: 'Groenland', isoCode: null });
    expect(freed.json()).toMatchObject({ name: 'Groenland', isoCode: null });

    const created = await call('POST', '/api/ctries', { name: 'Kalaallit Nunaat', isoCode: 'GL' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();
    expect(created.json()).toEqual({ id, name: 'Kalaallit Nunaat', order: 100, isoCode: 'GL' });
    expect((await call('GET', '/api/ctries')).json()).toContainEqual(created.json());

    const renamed = await call('PATCH', `/api/ctries/${id}`, { id, name: 'Groenland (Kalaallit Nunaat)' });
    expect(renamed.json()).toMatchObject({ name: 'Groenland (Kalaallit Nunaat)', isoCode: 'GL' });
    const emptied = await call('PATCH', `/api/ctries/${id}`, { id, name: 'Kalaallit Nunaat', isoCode: '' });
    expect(emptied.json()).toMatchObject({ isoCode: null });
    const [row] = await queryRows<{ iso_code: string | null }>(
      ctx.database.db,
      sql`select iso_code from countries where id = ${id}`,
    );
    expect(row?.iso_code).toBeNull();
    expect((await call('POST', '/api/ctries', { name: 'Sans code' })).json()).toMatchObject({
      isoCode: null,
    });
  });

  it('keeps a currency’s ISO 4217 code', async () => {
    const created = await call('POST', '/api/currencies', {
      name: 'Pound sterling',
      symbol: '£',
      isoCode: 'GBP',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Pound sterling', symbol: '£', isoCode: 'GBP' });
    const { id } = created.json();
    const edited = await call('PATCH', `/api/currencies/${id}`, { id, name: 'Livre sterling', symbol: '£' });
    expect(edited.json()).toEqual({ id, name: 'Livre sterling', symbol: '£', isoCode: 'GBP' });
  });

  it.each([
    [
      '/api/ctries',
      { name: 'Atlantide', isoCode: 'fr' },
      'The ISO code is two capital letters, e.g. FR or CH.',
    ],
    [
      '/api/ctries',
      { name: 'Atlantide', isoCode: 'FRA' },
      'The ISO code is two capital letters, e.g. FR or CH.',
    ],
    [
      '/api/ctries',
      { name: 'Atlantide', isoCode: 'F1' },
      'The ISO code is two capital letters, e.g. FR or CH.',
    ],
    ['/api/ctries', { name: 'Atlantide', isoCode: 'ZZ' }, 'This is not an ISO 3166-1 alpha-2 country code.'],
    [
      '/api/ctries',
      { name: 'Atlantide', isoCode: 42 },
      'The ISO code is two capital letters, e.g. FR or CH.',
    ],
    [
      '/api/currencies',
      { name: 'Pound sterling', symbol: '£', isoCode: 'gbp' },
      'The ISO code is three capital letters, e.g. EUR or CHF.',
    ],
    [
      '/api/currencies',
      { name: 'Pound sterling', symbol: '£', isoCode: 'GB' },
      'The ISO code is three capital letters, e.g. EUR or CHF.',
    ],
    [
      '/api/currencies',
      { name: 'Pound sterling', symbol: '£', isoCode: 'ABC' },
      'This is not an ISO 4217 currency code.',
    ],
  ])('%s refuses %o with a 400 naming isoCode', async (path, item, message) => {
    const response = await call('POST', path, item);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ path: 'isoCode', message: expect.any(String) }]);
    if (typeof item.isoCode === 'string') expect(response.json().errors[0].message).toBe(message);
    expect(
      ((await call('GET', path)).json() as Array<{ name: string }>).map((entry) => entry.name),
    ).not.toContain(item.name);
  });

  it.each([
    [
      '/api/ctries',
      { name: 'Atlantide', isoCode: 'CH' },
      "The country 'Suisse' already has the ISO code CH.",
    ],
    [
      '/api/currencies',
      { name: 'Euro bis', symbol: '€', isoCode: 'EUR' },
      "The currency 'EURO' already has the ISO code EUR.",
    ],
  ])(
    '%s refuses a code another item has with a 409 naming isoCode, on create and edit',
    async (path, item, detail) => {
      const duplicate = await call('POST', path, item);
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toMatchObject({
        code: 'reference_lists.iso_code_taken',
        detail,
        errors: [{ path: 'isoCode', message: expect.stringContaining('already has this ISO code') }],
      });
      const { isoCode: _taken, ...withoutCode } = item;
      const created = (await call('POST', path, withoutCode)).json();
      const edit = await call('PATCH', `${path}/${created.id}`, { ...item, id: created.id });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().errors[0].path).toBe('isoCode');
      // Its own code again is no conflict.
      const own = (await call('GET', path))
        .json()
        .find((entry: { isoCode: string }) => entry.isoCode === item.isoCode);
      expect((await call('PATCH', `${path}/${own.id}`, { ...own })).statusCode).toBe(200);
    },
  );

  it('answers 409 naming isoCode when the database refuses a code taken meanwhile', async () => {
    // The check before the write finds nothing, as when another save takes the code in between.
    const repository = { ...createReferenceListsRepository(), holderOfIsoCode: async () => undefined };
    const service = createReferenceListsService({
      db: ctx.database.db,
      repository,
      audit: createAuditService({
        db: ctx.database.db,
        repository: createAuditRepository(),
        clock: systemClock,
      }),
    });
    const countries = REFERENCE_LISTS.find((definition) => definition.key === 'ctries');
    if (!countries) throw new Error('no countries list');
    await expect(service.create(countries, { name: 'Atlantide', isoCode: 'FR' }, null)).rejects.toMatchObject(
      {
        code: 'reference_lists.iso_code_taken',
        errors: [{ path: 'isoCode', message: 'Another country already has this ISO code.' }],
      },
    );
  });

  it('is ignored by the lists without one', async () => {
    const created = await call('POST', '/api/tags', { name: 'Frontalier', isoCode: 'FR' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: created.json().id, name: 'Frontalier' });
  });
});
