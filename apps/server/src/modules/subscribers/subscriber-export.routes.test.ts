import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { asRecords, readCells, readSheet } from '../../../test/xlsx.ts';
import { XLSX_CONTENT_TYPE } from '../../lib/spreadsheet/xlsx-stream.ts';
import { createSubscriberExportRepository } from './subscriber-export.repository.ts';
import { createSubscriberExportService } from './subscriber-export.service.ts';

const ctx = useTestApp();

async function api(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  const headers = bearer((await login(ctx)).id_token);
  return ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function seed() {
  const vip = (await api('POST', '/api/tags', { name: 'VIP' })).json();
  await api('POST', '/api/tags', { name: 'Bénévole' });
  const category = (await api('POST', '/api/cats', { name: 'Bienfaiteur' })).json();
  return insertSubscribers(ctx, [
    buildSubscriber({
      title: 'Mme',
      firstName: 'Zoé',
      lastName: 'Martin',
      email: 'zoe@example.org',
      phone: '+41 22 123 45 67',
      address1: '3 rue du Rhône',
      town: 'Genève',
      postcode: '1204',
      countryId: 2,
      currencyId: 2,
      categoryId: category.id,
      paymentMethodId: 3,
      iban: 'CH93 0076 2011 6238 5295 7',
      amount: 42.5,
      copies: 3,
      startDate: '2026-01-15',
      tags: ['VIP', 'Bénévole'],
      association: 'Amis du Léman',
    }),
    // A town of its own: the random French one is Lyon one time in a hundred, which the filters below match.
    buildSubscriber({
      firstName: '=HYPERLINK("http://evil.test")',
      lastName: 'Attaque',
      email: '',
      town: 'Annecy',
    }),
    buildSubscriber({ firstName: 'Élodie', lastName: 'Dupont', town: 'Lyon', email: 'elodie@example.org' }),
    buildSubscriber({
      firstName: 'Marc',
      lastName: 'Durand',
      town: 'Lyon',
      email: 'marc@example.org',
      inactive: true,
    }),
  ]).then((saved) => ({ saved, vip }));
}

describe('GET /api/subscribers/export', () => {
  it('streams every detail of the matching subscribers as subscribers-export.xlsx, whatever the Accept header', async () => {
    const { saved } = await seed();
    await api('DELETE', `/api/subscribers/${saved[3]?.id}`);
    const headers = { ...bearer((await login(ctx)).id_token), accept: 'application/pdf' };
    const response = await ctx.app.inject({ url: '/api/subscribers/export', headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    expect(response.headers['content-disposition']).toContain(
      'attachment; filename="subscribers-export.xlsx"',
    );

    const { name, rows } = await readSheet(response.rawPayload);
    expect(name).toBe('Subscribers');
    expect(rows[0]).toEqual(
      expect.arrayContaining(['First name', 'Last name', 'Country', 'Tags', 'Added on']),
    );
    const records = asRecords(rows);
    // Sorted by last then first name; the deleted subscriber is left out.
    expect(records.map((record) => record['Last name'])).toEqual(['Attaque', 'Dupont', 'Martin']);
    const zoe = records[2];
    expect(zoe).toMatchObject({
      Id: saved[0]?.id,
      Title: 'Mme',
      'First name': 'Zoé',
      Email: 'zoe@example.org',
      Town: 'Genève',
      Country: 'Suisse',
      Currency: 'Swiss Franc',
      Category: 'Bienfaiteur',
      'Payment method': 'Prélèvement SEPA',
      IBAN: 'CH9300762011623852957',
      Amount: 42.5,
      Copies: 3,
      Tags: 'Bénévole, VIP',
      'Still on mailing list': true,
      Association: 'Amis du Léman',
      'Added by': 'Administrator',
    });
    // Dates are real dates; a text that starts like a formula does not stay one.
    expect(zoe?.['Start date']).toEqual(new Date('2026-01-15T00:00:00Z'));
    expect(zoe?.['Added on']).toBeInstanceOf(Date);
    expect(zoe?.Phone).toBe('+41 22 123 45 67');
    expect(records[0]?.['First name']).toBe('\'=HYPERLINK("http://evil.test")');
    expect(zoe?.['End date']).toBeUndefined();
  });

  it('keeps phones and postcodes as text, amounts as numbers with 2 decimals, dates as dates', async () => {
    await insertSubscribers(ctx, [
      buildSubscriber({
        lastName: 'Ain',
        postcode: '01200',
        phone: '+33 4 50 00 00 00',
        mobile: '0612345678',
        fax: '=1+1',
        amount: 1234.5,
        startDate: '2026-01-15',
      }),
    ]);
    const [ain] = await readCells((await api('GET', '/api/subscribers/export')).rawPayload);
    for (const [header, text] of [
      ['Postcode', '01200'],
      ['Phone', '+33 4 50 00 00 00'],
      ['Mobile', '0612345678'],
    ] as const) {
      expect(ain?.[header]).toEqual({ value: text, type: ExcelJS.ValueType.String, numFmt: '@' });
    }
    // A code that is not phone-shaped is still kept from running as a formula.
    expect(ain?.Fax?.value).toBe("'=1+1");
    expect(ain?.Amount).toEqual({ value: 1234.5, type: ExcelJS.ValueType.Number, numFmt: '#,##0.00' });
    expect(ain?.['Start date']).toEqual({
      value: new Date('2026-01-15T00:00:00Z'),
      type: ExcelJS.ValueType.Date,
      numFmt: 'dd/mm/yyyy',
    });
    expect(ain?.['Added on']?.type).toBe(ExcelJS.ValueType.Date);
    expect(ain?.['Added on']?.numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(ain?.['Last name']?.numFmt).toBe('@');
  });

  it('exports names and email addresses only, for subscribers who have one, with the search filters applied', async () => {
    const { vip } = await seed();
    const all = await api('GET', '/api/subscribers/export?emailsOnly=true');
    expect(all.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    const { name, rows } = await readSheet(all.rawPayload);
    expect(name).toBe('Email addresses');
    expect(rows).toEqual([
      ['First name', 'Last name', 'Email'],
      ['Élodie', 'Dupont', 'elodie@example.org'],
      ['Marc', 'Durand', 'marc@example.org'],
      ['Zoé', 'Martin', 'zoe@example.org'],
    ]);

    const filtered = async (query: string) =>
      asRecords(
        (await readSheet((await api('GET', `/api/subscribers/export?${query}`)).rawPayload)).rows,
      ).map((record) => record['Last name']);
    expect(await filtered('town=lyon&emailsOnly=1')).toEqual(['Dupont', 'Durand']);
    expect(await filtered('town=lyon&status=1&emailsOnly=0')).toEqual(['Dupont']);
    expect(await filtered(`tag=${vip.id}`)).toEqual(['Martin']);
    expect(await filtered('name=zzz')).toEqual([]);
    // Paging parameters of the search are ignored: the export holds every match.
    expect(await filtered('listfrom=2&listlength=1&emailsOnly=false')).toHaveLength(4);
  });

  it('neutralises formula-looking names and addresses in the email-address export too', async () => {
    await insertSubscribers(ctx, [
      buildSubscriber({ firstName: '@SUM(A1:A9)', lastName: '-2+3', email: '+cmd@example.org' }),
    ]);
    const { rows } = await readSheet(
      (await api('GET', '/api/subscribers/export?emailsOnly=true')).rawPayload,
    );
    expect(rows).toEqual([
      ['First name', 'Last name', 'Email'],
      ["'@SUM(A1:A9)", "'-2+3", "'+cmd@example.org"],
    ]);
  });

  it('answers 400 naming the field for a bad filter, and 401 without a token', async () => {
    const bad = await api('GET', '/api/subscribers/export?addedafter=31-12-2026');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('addedafter');
    const flag = await api('GET', '/api/subscribers/export?emailsOnly=maybe');
    expect(flag.statusCode).toBe(400);
    expect(flag.json().errors[0].path).toBe('emailsOnly');
    expect((await ctx.app.inject({ url: '/api/subscribers/export' })).statusCode).toBe(401);
    const { tokens } = await createSignedInUser(ctx);
    const asUser = await ctx.app.inject({ url: '/api/subscribers/export', headers: bearer(tokens.id_token) });
    expect(asUser.statusCode).toBe(200);
  });

  it('reads the database in keyset-paged batches without losing or repeating a row', async () => {
    await insertSubscribers(
      ctx,
      // Equal names on purpose: the id breaks the ties between batches.
      Array.from({ length: 7 }, (_, index) =>
        buildSubscriber({ lastName: index < 4 ? 'Même' : `Nom${index}`, firstName: 'Anne' }),
      ),
    );
    const service = createSubscriberExportService({
      db: ctx.database.db,
      repository: createSubscriberExportRepository(),
      batchSize: 2,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of service.stream({ emailsOnly: false })) chunks.push(chunk as Buffer);
    const records = asRecords((await readSheet(Buffer.concat(chunks))).rows);
    const ids = records.map((record) => record.Id);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    expect(records.map((record) => record['Last name'])).toEqual([
      'Même',
      'Même',
      'Même',
      'Même',
      'Nom4',
      'Nom5',
      'Nom6',
    ]);
  });

  it('names a country and a tag created while the export runs', async () => {
    await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Aubert', firstName: 'Anne' })]);
    const read = createSubscriberExportRepository().detailsReader(ctx.database.db, {});
    const [first] = await read({ limit: 1 });
    expect(first?.subscriber.lastName).toBe('Aubert');

    const created = await api('POST', '/api/ctries', { name: 'Terre Adélie' });
    expect(created.statusCode).toBe(201);
    const country = created.json();
    expect((await api('POST', '/api/tags', { name: 'Nouveau' })).statusCode).toBe(201);
    await insertSubscribers(ctx, [
      buildSubscriber({ lastName: 'Zeller', firstName: 'Paul', countryId: country.id, tags: ['Nouveau'] }),
    ]);
    const [next] = await read({ cursor: first?.subscriber, limit: 1 });
    expect(next).toMatchObject({
      subscriber: { lastName: 'Zeller' },
      country: 'Terre Adélie',
      tags: 'Nouveau',
    });
  });
});
