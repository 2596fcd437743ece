import type { AuditEvent, AuditSearchResult } from '@back-office/contract/audit';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  bearer,
  createSignedInUser,
  login,
  passwordLinkToken,
  useTestApp,
} from '../../../test/context.ts';

const ctx = useTestApp();

const PNG_1x1_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const product = {
  name: 'Calendrier 2027',
  euroPrice: 12.5,
  swissPrice: 14,
  active: true,
  currentStock: 3,
  minStockAlert: 5,
};

const settings = {
  organisationName: 'Les Amis du Léman',
  address: '12 rue du Lac\n74200 Thonon-les-Bains',
  emailSenderName: 'Les Amis du Léman',
  emailSenderAddress: 'contact@amis-leman.org',
  sirenOrRna: 'W741000000',
  sepaCreditorId: 'FR12ZZZ123456',
  signatoryName: 'Claire Dubois',
  signatoryTitle: 'Trésorière',
  organisationPurpose: 'Protection du lac',
  receiptStatement: 'Reçu au titre des dons.',
  invoiceFooter: 'Association loi 1901',
  paymentTermsText: 'Paiement à réception.',
  logo: null as string | null,
};

/** What an edit sends: the catalogue fields, never the stock (it moves through adjustments). */
const { currentStock: _stock, ...productEdit } = product;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Calls the API as the first Administrator (or with `token`). */
async function call(method: Method, url: string, payload?: object, token?: string) {
  const headers = bearer(token ?? (await login(ctx)).id_token);
  return ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
}

/** `GET /api/audit` as the Administrator; fails the test on anything but 200. */
async function searchAudit(query: Record<string, string | number> = {}): Promise<AuditSearchResult> {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const response = await call('GET', `/api/audit?${search.toString()}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AuditSearchResult;
}

/**
 * Every event in the order written (by id; easier to read in a test than the API's newest-first
 * order, and unlike time it does not depend on the first Administrator's event using the system clock).
 */
async function allEvents(): Promise<AuditEvent[]> {
  return (await searchAudit({ listlength: 500 })).models.sort((a, b) => a.id - b.id);
}

/** The events written since `count` events existed, oldest first. */
async function eventsSince(count: number): Promise<AuditEvent[]> {
  return (await allEvents()).slice(count);
}

/** What the Administrator's events say about their actor. */
async function adminActor() {
  const [admin] = (await (await call('GET', '/api/users')).json()) as Array<{ id: number; email: string }>;
  return { id: admin?.id ?? 0, name: 'Administrator', email: ADMIN_EMAIL };
}

/** The whole audit table as text, to prove what it never holds. */
async function auditTableText() {
  const result = (await ctx.database.db.execute(sql`select * from audit_events`)) as unknown as {
    rows: unknown[];
  };
  return JSON.stringify(result.rows);
}

describe('audit trail: users and roles', () => {
  it('records the first Administrator as created by the system', async () => {
    const events = await allEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: null,
      entityType: 'user',
      entityList: null,
      entityLabel: 'Administrator',
      action: 'created',
      before: null,
      after: { fullName: 'Administrator', email: ADMIN_EMAIL, role: 'Administrator' },
    });
  });

  it('records a user created, renamed, given a role, given a password and deleted, with who did it', async () => {
    const actor = await adminActor();
    const start = (await allEvents()).length;

    const created = await call('POST', '/api/users', {
      fullName: 'Jeanne Martin',
      email: 'jeanne@example.org',
      role: 'User',
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: number };
    const base = { id, fullName: 'Jeanne Martin', email: 'jeanne@example.org', role: 'User' };

    await call('PATCH', `/api/users/${id}`, { ...base, fullName: 'Jeanne Martin-Roux' });
    await call('PATCH', `/api/users/${id}`, {
      ...base,
      fullName: 'Jeanne Martin-Roux',
      role: 'Administrator',
    });
    const password = await call('PATCH', `/api/users/password/${id}`, {
      newPassword: 'Lac-Leman-au-printemps',
      confirmPassword: 'Lac-Leman-au-printemps',
    });
    expect(password.statusCode).toBe(200);
    expect((await call('DELETE', `/api/users/${id}`)).statusCode).toBe(204);

    const events = await eventsSince(start);
    expect(events.map((event) => [event.action, event.before, event.after])).toEqual([
      ['created', null, { fullName: 'Jeanne Martin', email: 'jeanne@example.org', role: 'User' }],
      ['updated', { fullName: 'Jeanne Martin' }, { fullName: 'Jeanne Martin-Roux' }],
      ['role_changed', { role: 'User' }, { role: 'Administrator' }],
      ['password_changed', null, null],
      [
        'deleted',
        { fullName: 'Jeanne Martin-Roux', email: 'jeanne@example.org', role: 'Administrator' },
        null,
      ],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ actor, entityType: 'user', entityId: id, entityList: null });
      expect(Date.parse(event.occurredAt)).toBe(ctx.clock.now().getTime());
    }
    expect(events.map((event) => event.entityLabel)).toEqual([
      'Jeanne Martin',
      'Jeanne Martin-Roux',
      'Jeanne Martin-Roux',
      'Jeanne Martin-Roux',
      'Jeanne Martin-Roux',
    ]);
    // Neither password hashes nor the emailed token ever reach the trail.
    const text = await auditTableText();
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('Lac-Leman-au-printemps');
    expect(text).not.toMatch(/password_hash|passwordHash|token/i);
  });

  it("keeps the actor's name and email after the actor's account is renamed and deleted", async () => {
    const other = await createSignedInUser(ctx, { email: 'claire@example.org', role: 'Administrator' });
    const start = (await allEvents()).length;
    const created = await call('POST', '/api/products', product, other.tokens.id_token);
    expect(created.statusCode).toBe(201);
    await call('PATCH', `/api/users/${other.id}`, {
      fullName: 'Claire Renamed',
      email: 'claire.renamed@example.org',
      role: 'Administrator',
    });
    expect((await call('DELETE', `/api/users/${other.id}`)).statusCode).toBe(204);

    const [event] = await eventsSince(start);
    expect(event).toMatchObject({
      action: 'created',
      entityType: 'product',
      actor: { id: other.id, name: 'Some Body', email: 'claire@example.org' },
    });
  });

  it('writes nothing for a refused or empty change', async () => {
    const { id } = (
      await call('POST', '/api/users', { fullName: 'Paul Durand', email: 'paul@example.org', role: 'User' })
    ).json() as { id: number };
    const actor = await adminActor();
    const start = (await allEvents()).length;

    const taken = await call('POST', '/api/users', {
      fullName: 'Paul Bis',
      email: 'PAUL@example.org',
      role: 'User',
    });
    expect(taken.statusCode).toBe(409);
    const takenOnUpdate = await call('PATCH', `/api/users/${id}`, {
      fullName: 'Paul Durand',
      email: ADMIN_EMAIL,
      role: 'User',
    });
    expect(takenOnUpdate.statusCode).toBe(409);
    const lastAdministrator = await call('PATCH', `/api/users/${actor.id}`, {
      fullName: 'Administrator',
      email: ADMIN_EMAIL,
      role: 'User',
    });
    expect(lastAdministrator.statusCode).toBe(409);
    expect(
      (await call('POST', '/api/users', { fullName: 'X', email: 'nope', role: 'Boss' })).statusCode,
    ).toBe(400);
    expect((await call('DELETE', `/api/users/${actor.id}`)).statusCode).toBe(409);
    expect((await call('DELETE', '/api/users/999999')).statusCode).toBe(404);
    const commonPassword = await call('PATCH', `/api/users/password/${id}`, {
      newPassword: 'password123',
      confirmPassword: 'password123',
    });
    expect(commonPassword.statusCode).toBe(400);
    // Saving the same values again changes nothing, so it is not an event.
    const same = await call('PATCH', `/api/users/${id}`, {
      fullName: 'Paul Durand',
      email: 'paul@example.org',
      role: 'User',
    });
    expect(same.statusCode).toBe(200);

    expect(await eventsSince(start)).toEqual([]);
  });

  it('is written in the transaction of the change: no event, no change', async () => {
    const start = (await allEvents()).length;
    // Make the trail refuse product events; the product must then not be created either.
    await ctx.database.db.execute(
      sql`alter table audit_events add constraint audit_test_refuse check (entity_type <> 'product') not valid`,
    );
    try {
      const refused = await call('POST', '/api/products', product);
      expect(refused.statusCode).toBe(500);
    } finally {
      await ctx.database.db.execute(sql`alter table audit_events drop constraint audit_test_refuse`);
    }
    expect((await call('GET', '/api/products')).json()).toEqual([]);
    expect(await eventsSince(start)).toEqual([]);
  });
});

describe('audit trail: products', () => {
  it('records a product created, updated (changed fields only) and deleted', async () => {
    const actor = await adminActor();
    const start = (await allEvents()).length;
    const created = await call('POST', '/api/products', product);
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: number };
    const updated = await call('PATCH', `/api/products/${id}`, {
      ...productEdit,
      id,
      version: 1,
      name: 'Calendrier 2028',
      euroPrice: 13,
      active: false,
    });
    expect(updated.statusCode).toBe(200);
    expect((await call('DELETE', `/api/products/${id}`)).statusCode).toBe(204);

    const events = await eventsSince(start);
    expect(events).toEqual([
      expect.objectContaining({
        actor,
        entityType: 'product',
        entityId: id,
        entityLabel: 'Calendrier 2027',
        action: 'created',
        before: null,
        after: product,
      }),
      expect.objectContaining({
        actor,
        entityLabel: 'Calendrier 2028',
        action: 'updated',
        before: { name: 'Calendrier 2027', euroPrice: 12.5, active: true },
        after: { name: 'Calendrier 2028', euroPrice: 13, active: false },
      }),
      expect.objectContaining({
        actor,
        entityLabel: 'Calendrier 2028',
        action: 'deleted',
        before: { ...product, name: 'Calendrier 2028', euroPrice: 13, active: false },
        after: null,
      }),
    ]);
  });

  it('records the change of a User, and nothing for refused changes', async () => {
    const user = await createSignedInUser(ctx);
    const start = (await allEvents()).length;
    expect(
      (await call('POST', '/api/products', { ...product, name: 'ab' }, user.tokens.id_token)).statusCode,
    ).toBe(400);
    expect(
      (await call('PATCH', '/api/products/999999', { ...productEdit, version: 1 }, user.tokens.id_token))
        .statusCode,
    ).toBe(404);
    expect((await call('DELETE', '/api/products/999999', undefined, user.tokens.id_token)).statusCode).toBe(
      404,
    );
    expect(await eventsSince(start)).toEqual([]);

    const created = await call('POST', '/api/products', product, user.tokens.id_token);
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: number };
    const mismatch = await call(
      'PATCH',
      `/api/products/${id}`,
      { ...productEdit, id: id + 1, version: 1 },
      user.tokens.id_token,
    );
    expect(mismatch.statusCode).toBe(400);
    const events = await eventsSince(start);
    expect(events).toHaveLength(1);
    expect(events[0]?.actor).toEqual({ id: user.id, name: 'Some Body', email: 'user@example.org' });
  });
});

describe('audit trail: reference lists', () => {
  it('records an item created, renamed and deleted, with its list', async () => {
    const actor = await adminActor();
    const start = (await allEvents()).length;
    const created = await call('POST', '/api/currencies', { name: 'Pound sterling', symbol: '£' });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: number };
    const renamed = await call('PATCH', `/api/currencies/${id}`, { id, name: 'Livre sterling', symbol: '£' });
    expect(renamed.statusCode).toBe(200);
    expect((await call('DELETE', `/api/currencies/${id}`)).statusCode).toBe(204);

    const events = await eventsSince(start);
    expect(events.map((event) => [event.action, event.entityLabel, event.before, event.after])).toEqual([
      ['created', 'Pound sterling', null, { name: 'Pound sterling', symbol: '£' }],
      ['updated', 'Livre sterling', { name: 'Pound sterling' }, { name: 'Livre sterling' }],
      ['deleted', 'Livre sterling', { name: 'Livre sterling', symbol: '£' }, null],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        actor,
        entityType: 'reference_list_item',
        entityList: 'currencies',
        entityId: id,
      });
    }
  });

  it('writes nothing for a duplicate name, a bad name or an item in use', async () => {
    const created = await call('POST', '/api/tags', { name: 'VIP' });
    const { id } = created.json() as { id: number };
    await ctx.database.db.execute(
      sql`insert into subscribers (first_name, last_name, currency_id, country_id) values ('Zoé', 'Martin', 1, 1)`,
    );
    const start = (await allEvents()).length;

    expect((await call('POST', '/api/tags', { name: 'vip' })).statusCode).toBe(409);
    expect((await call('PATCH', '/api/ctries/1', { name: '' })).statusCode).toBe(400);
    expect((await call('DELETE', '/api/ctries/1')).statusCode).toBe(409);
    expect((await call('DELETE', '/api/tags/999999')).statusCode).toBe(404);
    expect((await call('PATCH', `/api/tags/${id}`, { id, name: 'VIP' })).statusCode).toBe(200);

    expect(await eventsSince(start)).toEqual([]);
  });
});

describe('audit trail: settings', () => {
  it('records the fields that changed and describes the logo without keeping the image', async () => {
    const actor = await adminActor();
    const start = (await allEvents()).length;
    const first = await call('PUT', '/api/settings', settings);
    expect(first.statusCode, first.body).toBe(200);
    const logo = `data:image/png;base64,${PNG_1x1_BASE64}`;
    const second = await call('PUT', '/api/settings', { ...settings, signatoryName: 'Marc Favre', logo });
    expect(second.statusCode, second.body).toBe(200);
    // The same settings again: nothing changed, nothing recorded.
    expect(
      (await call('PUT', '/api/settings', { ...settings, signatoryName: 'Marc Favre', logo })).statusCode,
    ).toBe(200);

    const events = await eventsSince(start);
    expect(events).toHaveLength(2);
    const [saved, changed] = events;
    expect(saved).toMatchObject({
      actor,
      entityType: 'settings',
      entityLabel: 'Organisation settings',
      action: 'updated',
      before: { organisationName: '', signatoryName: '' },
      after: { organisationName: 'Les Amis du Léman', signatoryName: 'Claire Dubois' },
    });
    expect(Object.keys(saved?.after ?? {})).not.toContain('logo');
    expect(changed?.before).toEqual({ signatoryName: 'Claire Dubois', logo: null });
    expect(changed?.after).toEqual({
      signatoryName: 'Marc Favre',
      // Stored re-encoded, so its size is not that of the file sent.
      logo: expect.stringMatching(/^PNG image, \d+ bytes, SHA-256 [0-9a-f]{12}$/),
    });
    expect(await auditTableText()).not.toContain(PNG_1x1_BASE64.slice(0, 40));
  });

  it('writes nothing for refused settings', async () => {
    const start = (await allEvents()).length;
    const badLogo = await call('PUT', '/api/settings', {
      ...settings,
      logo: 'data:image/png;base64,SGVsbG8gd29ybGQ=',
    });
    expect(badLogo.statusCode).toBe(400);
    const badEmail = await call('PUT', '/api/settings', { ...settings, emailSenderAddress: 'nope' });
    expect(badEmail.statusCode).toBe(400);
    expect(await eventsSince(start)).toEqual([]);
  });
});

describe('GET /api/audit', () => {
  /** `YYYY-MM-DD` of an instant in Paris. */
  const parisDay = (iso: string) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' }).format(new Date(iso));

  it('is for Administrators: 401 without a token, 403 for a User', async () => {
    expect((await ctx.app.inject({ url: '/api/audit' })).statusCode).toBe(401);
    const user = await createSignedInUser(ctx);
    const refused = await call('GET', '/api/audit', undefined, user.tokens.id_token);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');
  });

  it('lists newest first, pages with listfrom/listlength and filters by kind, actor and days', async () => {
    // The first Administrator's event is on the system clock: keep the test clock clearly after it.
    ctx.clock.advance(24 * 3600 * 1000);
    const user = await createSignedInUser(ctx, { email: 'odile@example.org' });
    await call('POST', '/api/products', { ...product, name: 'Agenda 2027' }, user.tokens.id_token);
    ctx.clock.advance(3 * 24 * 3600 * 1000);
    await call('POST', '/api/tags', { name: 'Bénévole' });
    ctx.clock.advance(2 * 24 * 3600 * 1000);
    await call('POST', '/api/products', { ...product, name: 'Agenda 2028' });

    const everything = await searchAudit();
    // First Administrator, user created, their password set (same instant: newest id first), product, tag, product.
    expect(everything.count).toBe(6);
    expect(everything.models.map((event) => [event.action, event.entityLabel])).toEqual([
      ['created', 'Agenda 2028'],
      ['created', 'Bénévole'],
      ['created', 'Agenda 2027'],
      ['password_changed', 'Some Body'],
      ['created', 'Some Body'],
      ['created', 'Administrator'],
    ]);

    const page = await searchAudit({ listfrom: 2, listlength: 2 });
    expect(page.count).toBe(6);
    expect(page.models.map((event) => event.entityLabel)).toEqual(['Bénévole', 'Agenda 2027']);

    const products = await searchAudit({ entityType: 'product' });
    expect(products.models.map((event) => event.entityLabel)).toEqual(['Agenda 2028', 'Agenda 2027']);

    const byOdile = await searchAudit({ actor: 'ODILE@' });
    expect(byOdile.models.map((event) => [event.action, event.entityLabel])).toEqual([
      ['created', 'Agenda 2027'],
      ['password_changed', 'Some Body'],
    ]);
    const byName = await searchAudit({ actor: 'administ', entityType: 'product' });
    expect(byName.models.map((event) => event.entityLabel)).toEqual(['Agenda 2028']);
    // Accents and case do not count: `ÁDMÎN` finds Administrator.
    const accented = await searchAudit({ actor: 'ÁDMÎN', entityType: 'product' });
    expect(accented.models.map((event) => event.entityLabel)).toEqual(['Agenda 2028']);
    expect((await searchAudit({ actor: '%' })).count).toBe(0);

    const tagDay = parisDay(everything.models[1]?.occurredAt ?? '');
    const onTagDay = await searchAudit({ from: tagDay, to: tagDay });
    expect(onTagDay.models.map((event) => event.entityLabel)).toEqual(['Bénévole']);
    const fromTagDay = await searchAudit({ from: tagDay });
    expect(fromTagDay.models.map((event) => event.entityLabel)).toEqual(['Agenda 2028', 'Bénévole']);
    const untilTagDay = await searchAudit({ to: tagDay });
    expect(untilTagDay.models.map((event) => event.entityLabel)).toEqual(
      everything.models
        .filter((event) => parisDay(event.occurredAt) <= tagDay)
        .map((event) => event.entityLabel),
    );
    expect(untilTagDay.models[0]?.entityLabel).toBe('Bénévole');
  });

  it('answers 400 naming the field for a bad filter', async () => {
    for (const [query, field] of [
      ['entityType=donation', 'entityType'],
      ['from=2025-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2025-03-02&to=2025-03-01', 'to'],
      ['listlength=501', 'listlength'],
      ['listfrom=0', 'listfrom'],
      [`actor=${'x'.repeat(201)}`, 'actor'],
    ] as const) {
      const response = await call('GET', `/api/audit?${query}`);
      expect(response.statusCode, query).toBe(400);
      const problem = response.json() as { errors?: Array<{ path: string }> };
      expect(
        problem.errors?.map((error) => error.path),
        query,
      ).toContain(field);
    }
  });

  it("records a password set through the emailed link as the person's own change", async () => {
    const start = (await allEvents()).length;
    const created = await call('POST', '/api/users', {
      fullName: 'Nina Rey',
      email: 'nina@example.org',
      role: 'User',
    });
    const { id } = created.json() as { id: number };
    const token = await passwordLinkToken(ctx, 'nina@example.org');
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'Montagnes-du-Jura-42' },
    });
    expect(confirmed.statusCode).toBe(204);
    // A used link is refused and records nothing more.
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, newPassword: 'Montagnes-du-Jura-43' },
    });
    expect(again.statusCode).toBe(400);

    const events = await eventsSince(start);
    expect(events.map((event) => event.action)).toEqual(['created', 'password_changed']);
    expect(events[1]).toMatchObject({
      actor: { id, name: 'Nina Rey', email: 'nina@example.org' },
      entityType: 'user',
      entityId: id,
      before: null,
      after: null,
    });
    expect(await auditTableText()).not.toContain(token);
  });
});
