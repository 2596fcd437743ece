import { calendarDay, DEFAULT_TIME_ZONE, nextCalendarDay } from '@back-office/contract/calendar';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';

const ctx = useTestApp();

async function api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const headers = bearer((await login(ctx)).id_token);
  return ctx.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function addTag(name: string) {
  return (await api('POST', '/api/tags', { name })).json() as { id: number; name: string };
}

describe('the subscriber record', () => {
  it('offers a blank record added by the signed-in user', async () => {
    const response = await api('GET', '/api/subscribers/new');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: 0,
      inactive: false,
      countryId: 0,
      copies: 0,
      amount: 0,
      startDate: null,
      tags: [],
      onMailChimpList: false,
      addedBy: 'Administrator',
      addedOn: null,
    });
  });

  it('creates, reads and writes the creation in the history', async () => {
    await addTag('VIP');
    const [saved] = await insertSubscribers(ctx, [
      buildSubscriber({
        firstName: 'Zoé',
        lastName: 'Martin',
        iban: 'fr76 3000 6000 0112 3456 7890 189',
        tags: ['vip'],
        startDate: '2026-01-01',
        endDate: '',
      }),
    ]);
    const read = await api('GET', `/api/subscribers/${saved?.id}`);
    expect(read.json()).toMatchObject({
      id: saved?.id,
      version: 1,
      firstName: 'Zoé',
      lastName: 'Martin',
      iban: 'FR7630006000011234567890189',
      tags: ['VIP'],
      startDate: '2026-01-01',
      endDate: null,
      addedBy: 'Administrator',
      hidden: false,
    });
    const history = await api('GET', `/api/subscribers/${saved?.id}/history`);
    expect(history.json()).toEqual([
      {
        description: expect.stringMatching(/^Subscriber .*Zoé Martin created\.$/),
        user: 'Administrator',
        date: expect.any(String),
      },
    ]);
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'First name.'],
    [{ lastName: '  ' }, 'lastName', 'Last name.'],
    [{ currencyId: 0 }, 'currencyId', 'Currency.'],
    [{ email: 'not-an-email' }, 'email', 'Valid email is required'],
    [{ iban: 'FR76 3000 6000 0112 3456 7890 180' }, 'iban', 'This IBAN is not valid.'],
    [{ startDate: '2026-02-30' }, 'startDate', 'Dates are written YYYY-MM-DD.'],
    [{ amount: -5 }, 'amount', 'The amount cannot be negative.'],
    [{ copies: 1.5 }, 'copies', 'Copies must be a whole number.'],
  ])('answers 400 naming the field for %j', async (change, path, message) => {
    const response = await api('POST', '/api/subscribers', buildSubscriber(change));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path, message });
  });

  it('answers 400 for an unknown reference id or tag, and writes nothing', async () => {
    const response = await api(
      'POST',
      '/api/subscribers',
      buildSubscriber({ countryId: 9999, tags: ['Nope'] }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'subscribers.unknown_reference' });
    expect(response.json().errors).toEqual([
      { path: 'countryId', message: 'This country does not exist.' },
      { path: 'tags.0', message: "The tag 'Nope' does not exist." },
    ]);
    expect((await api('GET', '/api/subscribers/?name=')).json().count).toBe(0);
  });

  it('saves changes, says what changed in plain words, and bumps the version', async () => {
    await addTag('VIP');
    const [saved] = await insertSubscribers(ctx, [
      buildSubscriber({ firstName: 'Jean', lastName: 'Dupont', town: 'Lyon', iban: '', notes: 'a' }),
    ]);
    const current = (await api('GET', `/api/subscribers/${saved?.id}`)).json();
    const response = await api('PATCH', `/api/subscribers/${saved?.id}`, {
      ...current,
      town: 'Genève',
      countryId: 2,
      currencyId: 2,
      tags: ['VIP'],
      iban: 'CH93 0076 2011 6238 5295 7',
      notes: 'moved',
      inactive: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ town: 'Genève', version: 2, tags: ['VIP'] });
    const [latest] = (await api('GET', `/api/subscribers/${saved?.id}/history`)).json();
    expect(latest.description).toBe(
      "Changed town from 'Lyon' to 'Genève'; country from 'France' to 'Suisse'; currency from 'EURO' to 'Swiss Franc'; " +
        "IBAN from (empty) to ending 2957; notes; still on mailing list from yes to no; tags: added 'VIP'.",
    );
    // The same tag written in another case keeps it; no tags removes it.
    const again = await api('PATCH', `/api/subscribers/${saved?.id}`, {
      ...response.json<object>(),
      tags: ['vip'],
    });
    expect(again.json()).toMatchObject({ tags: ['VIP'], version: 3 });
    const untagged = await api('PATCH', `/api/subscribers/${saved?.id}`, {
      ...again.json<object>(),
      tags: [],
    });
    expect(untagged.json()).toMatchObject({ tags: [], version: 4 });
    const [removal] = (await api('GET', `/api/subscribers/${saved?.id}/history`)).json();
    expect(removal.description).toBe("Changed tags: removed 'VIP'.");
  });

  it('answers 409 when someone else saved the record since it was read, and keeps their change', async () => {
    const [saved] = await insertSubscribers(ctx, [buildSubscriber({ town: 'Lyon' })]);
    const copyA = (await api('GET', `/api/subscribers/${saved?.id}`)).json();
    const copyB = (await api('GET', `/api/subscribers/${saved?.id}`)).json();
    expect(
      (await api('PATCH', `/api/subscribers/${saved?.id}`, { ...copyA, town: 'Annecy' })).statusCode,
    ).toBe(200);
    const stale = await api('PATCH', `/api/subscribers/${saved?.id}`, { ...copyB, town: 'Genève' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('subscribers.stale');
    expect((await api('GET', `/api/subscribers/${saved?.id}`)).json().town).toBe('Annecy');
  });

  it('hides a deleted subscriber but keeps its history; unknown ids are 404', async () => {
    const [saved] = await insertSubscribers(ctx, [buildSubscriber()]);
    expect((await api('DELETE', `/api/subscribers/${saved?.id}`)).statusCode).toBe(204);
    expect((await api('GET', `/api/subscribers/${saved?.id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/subscribers/${saved?.id}`)).statusCode).toBe(404);
    const history = (await api('GET', `/api/subscribers/${saved?.id}/history`)).json();
    expect(history[0].description).toBe('Subscriber deleted.');
    expect((await api('GET', '/api/subscribers/999999')).statusCode).toBe(404);
    expect((await api('GET', '/api/subscribers/999999/history')).statusCode).toBe(404);
  });

  it('is open to any signed-in user, not to anonymous callers', async () => {
    expect((await ctx.app.inject({ url: '/api/subscribers/new' })).statusCode).toBe(401);
    const { tokens } = await createSignedInUser(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/subscribers',
      headers: bearer(tokens.id_token),
      payload: buildSubscriber(),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().addedBy).toBe('Some Body');
  });
});

describe('subscriber search', () => {
  async function seed() {
    const vip = await addTag('VIP');
    const category = (await api('POST', '/api/cats', { name: 'Bienfaiteur' })).json();
    await insertSubscribers(ctx, [
      buildSubscriber({
        firstName: 'Zoé',
        lastName: 'Martin',
        town: 'Genève',
        postcode: '1201',
        countryId: 2,
        copies: 3,
        tags: ['VIP'],
        association: 'Amis du Léman',
        categoryId: category.id,
        paymentMethodId: 3,
      }),
      buildSubscriber({
        firstName: 'Zoe',
        lastName: 'martinez',
        town: 'Lyon',
        postcode: '69001',
        countryId: 1,
        copies: 1,
      }),
      buildSubscriber({
        firstName: 'Élodie',
        lastName: 'Dupont',
        town: 'Lyon',
        postcode: '69002',
        countryId: 1,
        copies: 5,
        inactive: true,
      }),
      buildSubscriber({
        firstName: 'Marc',
        lastName: 'Durand',
        town: 'Annecy',
        postcode: '74000',
        countryId: 1,
        copies: 0,
      }),
    ]);
    return { vip, category };
  }
  const names = (body: { models: Array<{ name: string }> }) =>
    body.models.map((model) => model.name.split(' ').slice(-2).join(' '));

  it('finds names anywhere from three characters on, accent- and case-insensitively; shorter as prefixes', async () => {
    await seed();
    const cases: Array<[string, string[]]> = [
      ['name=URAN', ['Marc Durand']],
      ['name=tin', ['Zoé Martin', 'Zoe martinez']],
      ['name=du', ['Élodie Dupont', 'Marc Durand']],
      ['name=nd', []],
      ['firstname=LODI', ['Élodie Dupont']],
      // Two characters: a prefix, so the end of Zoé does not match.
      ['firstname=oé', []],
      ['assoc=léman', ['Zoé Martin']],
      ['name=a_t', []],
      ['name=t%25n', []],
    ];
    for (const [query, expected] of cases) {
      const response = await api('GET', `/api/subscribers/?${query}`);
      expect(response.statusCode, query).toBe(200);
      expect(names(response.json()), query).toEqual(expected);
    }
  });

  it('finds by each filter alone, case- and accent-insensitive prefixes', async () => {
    const { vip, category } = await seed();
    const cases: Array<[string, string[]]> = [
      ['name=MART', ['Zoé Martin', 'Zoe martinez']],
      ['firstname=zoe', ['Zoé Martin', 'Zoe martinez']],
      ['firstname=elo', ['Élodie Dupont']],
      ['town=gene', ['Zoé Martin']],
      ['postcode=690', ['Élodie Dupont', 'Zoe martinez']],
      ['assoc=amis du leman', ['Zoé Martin']],
      ['country=1', ['Élodie Dupont', 'Marc Durand', 'Zoe martinez']],
      [`category=${category.id}`, ['Zoé Martin']],
      ['pmeth=3', ['Zoé Martin']],
      [`tag=${vip.id}`, ['Zoé Martin']],
      ['copies=3', ['Élodie Dupont', 'Zoé Martin']],
      ['status=1', ['Marc Durand', 'Zoé Martin', 'Zoe martinez']],
      ['status=2', ['Élodie Dupont']],
      ['status=0', ['Élodie Dupont', 'Marc Durand', 'Zoé Martin', 'Zoe martinez']],
      ['status=', ['Élodie Dupont', 'Marc Durand', 'Zoé Martin', 'Zoe martinez']],
      ['name=100%25', []],
    ];
    for (const [query, expected] of cases) {
      const response = await api('GET', `/api/subscribers/?${query}`);
      expect(response.statusCode, query).toBe(200);
      expect(names(response.json()), query).toEqual(expected);
      expect(response.json().count, query).toBe(expected.length);
    }
  });

  it('combines filters and returns the row shape of part 2 §3', async () => {
    await seed();
    const response = await api('GET', '/api/subscribers/?town=lyon&copies=2&firstname=&name=');
    expect(response.json()).toEqual({
      count: 1,
      countIsExact: true,
      models: [
        {
          id: expect.any(Number),
          name: expect.stringContaining('Élodie Dupont'),
          category: '',
          street: expect.any(String),
          postCode: '69002',
        },
      ],
    });
    const withCategory = (await api('GET', '/api/subscribers/?town=gen')).json();
    expect(withCategory.models[0].category).toBe('Bienfaiteur');
  });

  it('filters on the day added: after includes the day, before excludes it', async () => {
    await seed();
    // Days are the organisation's (Europe/Paris by default), not UTC days (docs/decisions/012).
    const today = calendarDay(new Date(), DEFAULT_TIME_ZONE);
    const tomorrow = nextCalendarDay(today);
    expect((await api('GET', `/api/subscribers/?addedafter=${today}`)).json().count).toBe(4);
    expect((await api('GET', `/api/subscribers/?addedafter=${tomorrow}`)).json().count).toBe(0);
    expect((await api('GET', `/api/subscribers/?addedbefore=${tomorrow}`)).json().count).toBe(4);
    expect((await api('GET', `/api/subscribers/?addedbefore=${today}`)).json().count).toBe(0);
    expect((await api('GET', '/api/subscribers/?addedafter=21-11-2026')).statusCode).toBe(400);
  });

  it('pages with listfrom (1-based) and listlength, sorted by last then first name, never showing deleted ones', async () => {
    const saved = await insertSubscribers(
      ctx,
      Array.from({ length: 7 }, (_, index) =>
        buildSubscriber({ lastName: `Nom${index}`, firstName: 'Anne' }),
      ),
    );
    await api('DELETE', `/api/subscribers/${saved[6]?.id}`);
    const first = (await api('GET', '/api/subscribers/?listfrom=1&listlength=4')).json();
    const second = (await api('GET', '/api/subscribers/?listfrom=5&listlength=4')).json();
    expect(first.count).toBe(6);
    expect(names(first)).toEqual(['Anne Nom0', 'Anne Nom1', 'Anne Nom2', 'Anne Nom3']);
    expect(names(second)).toEqual(['Anne Nom4', 'Anne Nom5']);
    // A page's rows come from one prepared statement, whose plan PostgreSQL keeps after five runs:
    // every page, walked or collected (a name filter), stays right past that.
    for (const filter of ['', '&name=nom']) {
      const pages = [];
      for (let listfrom = 1; listfrom <= 7; listfrom += 1) {
        pages.push(
          ...names((await api('GET', `/api/subscribers/?listfrom=${listfrom}&listlength=1${filter}`)).json()),
        );
      }
      expect(pages).toEqual(['Anne Nom0', 'Anne Nom1', 'Anne Nom2', 'Anne Nom3', 'Anne Nom4', 'Anne Nom5']);
    }
    expect((await api('GET', '/api/subscribers/?listlength=501')).statusCode).toBe(400);
    expect((await api('GET', '/api/subscribers/?listfrom=0')).statusCode).toBe(400);
  });

  it('counts a tag alone without its deleted members, as with any other filter beside it', async () => {
    const newsletter = await addTag('Newsletter');
    const saved = await insertSubscribers(
      ctx,
      Array.from({ length: 5 }, (_, index) =>
        buildSubscriber({ lastName: `Lecteur${index}`, firstName: 'Anne', tags: ['Newsletter'] }),
      ),
    );
    await api('DELETE', `/api/subscribers/${saved[1]?.id}`);
    await api('DELETE', `/api/subscribers/${saved[3]?.id}`);
    const alone = (await api('GET', `/api/subscribers/?tag=${newsletter.id}&status=0&name=`)).json();
    expect(alone).toMatchObject({ count: 3, countIsExact: true });
    expect(names(alone)).toEqual(['Anne Lecteur0', 'Anne Lecteur2', 'Anne Lecteur4']);
    const withName = (await api('GET', `/api/subscribers/?tag=${newsletter.id}&firstname=ann`)).json();
    expect(withName).toMatchObject({ count: 3, countIsExact: true });
  });
});
