import type { ExchangeRateImport, ExchangeRateList } from '@back-office/contract/exchange-rates';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator, type TestApi } from '../../../test/api.ts';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { csv, multipart } from '../../../test/imports.ts';
import { queryRows } from '../../db/client.ts';
import { createExchangeRatesRepository } from './exchange-rates.repository.ts';
import { createExchangeRatesService } from './exchange-rates.service.ts';

const ctx = useTestApp();

/**
 * Four days of the ECB's eurofxref-hist.csv as it comes: newest first, a comma at the end of every
 * line (so an empty last column), `N/A` where the ECB published no rate (CYP left the list in 2008;
 * ISK is missing on one day here).
 */
const ECB_EXCERPT = csv([
  'Date,USD,JPY,CYP,CHF,ISK,GBP,',
  '2024-03-05,1.0857,162.93,N/A,0.9600,149.30,0.85553,',
  '2024-03-04,1.0845,162.75,N/A,0.9585,N/A,0.85553,',
  '2024-03-01,1.0833,162.38,N/A,0.9558,148.70,0.85515,',
  '2024-02-29,1.0813,162.47,N/A,0.9563,149.10,0.85493,',
]);
/** The rates of {@link ECB_EXCERPT}: 4 days × 5 currencies with a rate, less the one ISK `N/A`. */
const EXCERPT_RATES = 19;

function importFile(bytes: Buffer, token?: string, name = 'eurofxref-hist.csv') {
  return sendMultipart(multipart({}, { name, bytes }), token);
}

async function sendMultipart(body: { payload: Buffer; contentType: string }, token?: string) {
  const idToken = token ?? (await login(ctx)).id_token;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/exchange-rates/import',
    headers: { ...bearer(idToken), 'content-type': body.contentType },
    payload: body.payload,
  });
}

async function imported(bytes: Buffer) {
  const response = await importFile(bytes);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ExchangeRateImport>();
}

const list = (api: TestApi, query = '') =>
  api.expectStatus<ExchangeRateList>(200, 'GET', `/api/exchange-rates${query}`);

const service = () =>
  createExchangeRatesService({ db: ctx.database.db, repository: createExchangeRatesRepository() });

describe('exchange rates: typed in', () => {
  it('stores a rate (201), takes the same again (200), and refuses another for that day (409)', async () => {
    const api = await asAdministrator(ctx);
    const rate = { date: '2024-03-01', currency: 'CHF', rate: 0.9558 };
    expect(await api.expectStatus(201, 'POST', '/api/exchange-rates', rate)).toEqual(rate);
    expect(await api.expectStatus(200, 'POST', '/api/exchange-rates', rate)).toEqual(rate);

    const conflict = await api.post<{ code: string; detail: string; errors: unknown[] }>(
      '/api/exchange-rates',
      { ...rate, rate: 0.96 },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.headers['content-type']).toContain('application/problem+json');
    expect(conflict.body.code).toBe('exchange_rates.conflict');
    expect(conflict.body.detail).toContain('CHF on 2024-03-01 is already stored: 0.9558 CHF for 1 euro');
    expect(conflict.body.errors).toEqual([{ path: 'rate', message: conflict.body.detail }]);

    const rows = await queryRows<{ rate: string; source: string; created_by: string }>(
      ctx.database.db,
      sql`select rate::text, source, created_by from exchange_rates`,
    );
    expect(rows).toEqual([{ rate: '0.955800', source: 'manual', created_by: expect.any(String) }]);
  });

  it('keeps 6 decimals and large rates exactly', async () => {
    const api = await asAdministrator(ctx);
    for (const rate of [
      { date: '2024-03-01', currency: 'IDR', rate: 17_055.48 },
      { date: '2024-03-01', currency: 'GBP', rate: 0.855153 },
      { date: '2024-03-01', currency: 'IRR', rate: 45_612_345.123456 },
    ]) {
      expect(await api.expectStatus(201, 'POST', '/api/exchange-rates', rate)).toEqual(rate);
      expect(await api.expectStatus(200, 'POST', '/api/exchange-rates', rate)).toEqual(rate);
    }
  });

  it('answers 400 naming the field for a bad currency, rate or date', async () => {
    const api = await asAdministrator(ctx);
    const good = { date: '2024-03-01', currency: 'USD', rate: 1.0833 };
    for (const [change, field, message] of [
      [{ currency: 'EUR' }, 'currency', 'A euro is always 1 euro: choose another currency.'],
      [{ currency: 'usd' }, 'currency', 'Choose the currency by its 3-letter ISO code, such as CHF or USD.'],
      [{ currency: 'XYZ' }, 'currency', 'Choose the currency by its 3-letter ISO code, such as CHF or USD.'],
      [{ rate: 0 }, 'rate', 'The rate must be more than 0.'],
      [{ rate: -1.2 }, 'rate', 'The rate must be more than 0.'],
      [{ rate: 1.1234567 }, 'rate', 'The rate can have at most 6 decimals.'],
      [{ rate: '1.08' }, 'rate', 'The rate is required.'],
      [{ date: '2024-02-30' }, 'date', 'The date is a day written YYYY-MM-DD.'],
      [{ date: '01/03/2024' }, 'date', 'The date is a day written YYYY-MM-DD.'],
    ] as const) {
      const answer = await api.post<{ code: string; errors: Array<{ path: string; message: string }> }>(
        '/api/exchange-rates',
        { ...good, ...change },
      );
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.code).toBe('validation.failed');
      expect(answer.body.errors, JSON.stringify(change)).toContainEqual({ path: field, message });
    }
    expect((await list(api)).count).toBe(0);
  });
});

describe('exchange rates: the list', () => {
  it('lists newest day first, filters by currency and days, and pages', async () => {
    const api = await asAdministrator(ctx);
    expect(await list(api)).toEqual({ count: 0, models: [] });
    await imported(ECB_EXCERPT);

    const all = await list(api);
    expect(all.count).toBe(EXCERPT_RATES);
    expect(all.models.slice(0, 6)).toEqual([
      { date: '2024-03-05', currency: 'CHF', rate: 0.96 },
      { date: '2024-03-05', currency: 'GBP', rate: 0.85553 },
      { date: '2024-03-05', currency: 'ISK', rate: 149.3 },
      { date: '2024-03-05', currency: 'JPY', rate: 162.93 },
      { date: '2024-03-05', currency: 'USD', rate: 1.0857 },
      { date: '2024-03-04', currency: 'CHF', rate: 0.9585 },
    ]);

    const chf = await list(api, '?currency=chf');
    expect(chf.count).toBe(4);
    expect(chf.models.map((rate) => rate.date)).toEqual([
      '2024-03-05',
      '2024-03-04',
      '2024-03-01',
      '2024-02-29',
    ]);

    const days = await list(api, '?currency=CHF&from=2024-03-01&to=2024-03-04');
    expect(days.models.map((rate) => rate.date)).toEqual(['2024-03-04', '2024-03-01']);
    expect((await list(api, '?from=2024-03-05')).count).toBe(5);
    expect((await list(api, '?to=2024-02-29&currency=')).count).toBe(5);

    const second = await list(api, '?currency=CHF&listfrom=2&listlength=2');
    expect(second).toEqual({
      count: 4,
      models: [
        { date: '2024-03-04', currency: 'CHF', rate: 0.9585 },
        { date: '2024-03-01', currency: 'CHF', rate: 0.9558 },
      ],
    });
    expect((await list(api, '?listfrom=100')).models).toEqual([]);
  });

  it('is open to every signed-in user; saving and importing need an Administrator', async () => {
    const { tokens } = await createSignedInUser(ctx);
    const user = apiClient(ctx, tokens.id_token);
    expect((await list(user)).count).toBe(0);
    const saved = await user.post('/api/exchange-rates', {
      date: '2024-03-01',
      currency: 'CHF',
      rate: 0.9558,
    });
    expect(saved.status).toBe(403);
    const response = await importFile(ECB_EXCERPT, tokens.id_token);
    expect(response.statusCode).toBe(403);
    expect((await list(user)).count).toBe(0);
  });

  it('refuses a bad filter naming it', async () => {
    const api = await asAdministrator(ctx);
    for (const [query, field] of [
      ['?currency=EURO', 'currency'],
      ['?from=2024-02-30', 'from'],
      ['?to=31/12/2024', 'to'],
      ['?listlength=501', 'listlength'],
      ['?listfrom=0', 'listfrom'],
    ] as const) {
      const answer = await api.get<{ errors: Array<{ path: string }> }>(`/api/exchange-rates${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors.map((error) => error.path)).toContain(field);
    }
  });
});

describe('exchange rates: the ECB file', () => {
  it('imports the rates of the file, skipping N/A, and skips them all the second time', async () => {
    const api = await asAdministrator(ctx);
    expect(await imported(ECB_EXCERPT)).toEqual({ imported: EXCERPT_RATES, skipped: 0 });
    expect(await imported(ECB_EXCERPT)).toEqual({ imported: 0, skipped: EXCERPT_RATES });
    expect((await list(api)).count).toBe(EXCERPT_RATES);
    expect((await list(api, '?currency=CYP')).count).toBe(0);
    const sources = await queryRows<{ source: string; n: number }>(
      ctx.database.db,
      sql`select source, count(*)::int as n from exchange_rates group by source`,
    );
    expect(sources).toEqual([{ source: 'ecb', n: EXCERPT_RATES }]);
  });

  it('keeps a stored rate that differs from the file, and counts it as skipped', async () => {
    const api = await asAdministrator(ctx);
    await api.expectStatus(201, 'POST', '/api/exchange-rates', {
      date: '2024-03-04',
      currency: 'CHF',
      rate: 0.95,
    });
    await api.expectStatus(201, 'POST', '/api/exchange-rates', {
      date: '2024-03-01',
      currency: 'USD',
      rate: 1.0833,
    });
    expect(await imported(ECB_EXCERPT)).toEqual({ imported: EXCERPT_RATES - 2, skipped: 2 });
    const chf = await list(api, '?currency=CHF&from=2024-03-04&to=2024-03-04');
    expect(chf.models).toEqual([{ date: '2024-03-04', currency: 'CHF', rate: 0.95 }]);
  });

  it('reads the file without a trailing comma, with a BOM, CRLF or LF, blank lines and the one-day file', async () => {
    const api = await asAdministrator(ctx);
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const text = 'Date,USD,CHF\n2024-03-05,1.0857,0.9600\n\n2024-03-04,1.0845,N/A\n';
    expect(await imported(Buffer.concat([bom, Buffer.from(text)]))).toEqual({ imported: 3, skipped: 0 });
    // The ECB's one-day file eurofxref.csv: the day written out, spaces after the commas.
    const daily = 'Date, USD, JPY, \n06 March 2024, 1.0871, 163.41, \n';
    expect(await imported(Buffer.from(daily))).toEqual({ imported: 2, skipped: 0 });
    expect((await list(api, '?currency=JPY')).models).toEqual([
      { date: '2024-03-06', currency: 'JPY', rate: 163.41 },
    ]);
    const refused = await importFile(Buffer.from('Date,USD\n31 June 2024,1.08\n'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ detail: expect.stringContaining('"31 June 2024" is not a day') });
    expect((await list(api)).count).toBe(5);
  });

  it('stores a large file in batches, all in one go', async () => {
    const currencies = ['USD', 'JPY', 'BGN', 'CZK', 'DKK', 'GBP', 'HUF', 'PLN', 'RON', 'SEK', 'CHF', 'NOK'];
    const lines = [`Date,${currencies.join(',')},`];
    const start = Date.UTC(2023, 0, 2);
    for (let day = 0; day < 600; day += 1) {
      const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
      lines.push(`${date},${currencies.map((_, index) => (1 + index + day / 1000).toFixed(4)).join(',')},`);
    }
    const bytes = csv(lines);
    const total = 600 * currencies.length;
    expect(await imported(bytes)).toEqual({ imported: total, skipped: 0 });
    expect(await imported(bytes)).toEqual({ imported: 0, skipped: total });
    const api = await asAdministrator(ctx);
    expect((await list(api, '?currency=CHF&from=2023-01-02&to=2023-01-02')).models).toEqual([
      { date: '2023-01-02', currency: 'CHF', rate: 11 },
    ]);
  });

  it('refuses a bad file with 400 naming the problem, and stores nothing', async () => {
    const api = await asAdministrator(ctx);
    const cases: Array<[string, Buffer, string]> = [
      ['empty', Buffer.alloc(0), 'The file is empty.'],
      ['blank lines', Buffer.from('\n\n'), 'The file is empty.'],
      ['a ZIP archive', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'ZIP archive'],
      ['binary', Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0xff]), 'not a CSV text file'],
      ['no Date column', csv(['Jour,USD', '2024-03-01,1.08']), 'no Date column'],
      ['not currencies', csv(['Prénom,Nom,Date', 'Ann,Lee,2024-03-01']), '"Prénom" is not a currency code'],
      ['a EUR column', csv(['Date,EUR', '2024-03-01,1']), 'EUR column'],
      ['twice the same currency', csv(['Date,USD,usd', '2024-03-01,1.08,1.08']), 'two USD columns'],
      ['only dates', csv(['Date,', '2024-03-01,']), 'no currency columns'],
      ['no days', csv(['Date,USD,CHF,']), 'no days under its header row'],
      ['a French date', csv(['Date,USD', '01/03/2024,1.08']), 'Line 2: the date "01/03/2024" is not a day'],
      ['no date', csv(['Date,USD', ',1.08']), 'Line 2: the date "" is not a day'],
      ['a day that does not exist', csv(['Date,USD', '2024-03-01,1.08', '2023-02-29,1.07']), 'Line 3'],
      ['a day twice', csv(['Date,USD', '2024-03-01,1.08', '2024-03-01,1.07']), 'already on line 2'],
      ['a decimal comma', csv(['Date,USD', '2024-03-01,"1,08"']), 'Line 2, column USD: "1,08" is not a rate'],
      ['a negative rate', csv(['Date,USD', '2024-03-01,-1.08']), '"-1.08" is not a rate'],
      ['a zero rate', csv(['Date,USD', '2024-03-01,0.0000']), '"0.0000" is not a rate'],
      ['text', csv(['Date,USD', '2024-03-01,abc']), '"abc" is not a rate'],
      ['7 decimals', csv(['Date,USD', '2024-03-01,1.0812345']), '"1.0812345" is not a rate'],
      ['an open quote', Buffer.from('Date,USD\n2024-03-01,"1.08\n'), 'not closed'],
      ['over 10 MB', Buffer.alloc(10 * 1024 * 1024 + 1, 0x41), 'over 10 MB'],
    ];
    for (const [label, bytes, detail] of cases) {
      const response = await importFile(bytes);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      expect(response.headers['content-type'], label).toContain('application/problem+json');
      expect(response.json(), label).toMatchObject({
        code: 'exchange_rates.bad_file',
        detail: expect.stringContaining(detail),
      });
    }
    // A good file whose last line is bad stores nothing.
    const spoiled = Buffer.concat([ECB_EXCERPT, Buffer.from('2024-02-28,1.0800,abc,N/A,0.95,149,0.85,\r\n')]);
    expect((await importFile(spoiled)).statusCode).toBe(400);
    expect((await list(api)).count).toBe(0);
  });

  it('refuses a request that carries no file', async () => {
    const token = (await login(ctx)).id_token;
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/exchange-rates/import',
      headers: bearer(token),
      payload: { file: 'Date,USD' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({
      code: 'exchange_rates.bad_file',
      detail: expect.stringContaining('multipart'),
    });
    const noFile = await sendMultipart(multipart({ note: 'x' }), token);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ detail: 'No file was sent.', errors: [{ path: 'file' }] });
  });
});

describe('exchange rates: the rate of a day (rateFor)', () => {
  it('takes the rate of the day, else the last one in the 7 days before, and EUR is 1', async () => {
    await imported(ECB_EXCERPT);
    const rates = service();
    const db = ctx.database.db;
    expect(await rates.rateFor(db, 'CHF', '2024-03-04')).toEqual({ rate: 0.9585, date: '2024-03-04' });
    // Saturday and Sunday: Friday's rate.
    expect(await rates.rateFor(db, 'CHF', '2024-03-02')).toEqual({ rate: 0.9558, date: '2024-03-01' });
    expect(await rates.rateFor(db, 'CHF', '2024-03-03')).toEqual({ rate: 0.9558, date: '2024-03-01' });
    // ISK has none on 2024-03-04: the rate before it.
    expect(await rates.rateFor(db, 'ISK', '2024-03-04')).toEqual({ rate: 148.7, date: '2024-03-01' });
    // Seven days after the last rate still finds it; the eighth does not.
    expect(await rates.rateFor(db, 'USD', '2024-03-12')).toEqual({ rate: 1.0857, date: '2024-03-05' });
    await expect(rates.rateFor(db, 'USD', '2024-03-13')).rejects.toMatchObject({
      status: 409,
      code: 'exchange_rates.missing',
      detail: 'No exchange rate for USD on 2024-03-13 or the 7 days before: add it under Exchange rates.',
    });
    await expect(rates.rateFor(db, 'CHF', '2024-02-28')).rejects.toMatchObject({
      code: 'exchange_rates.missing',
    });
    await expect(rates.rateFor(db, 'CYP', '2024-03-04')).rejects.toMatchObject({
      detail: 'No exchange rate for CYP on 2024-03-04 or the 7 days before: add it under Exchange rates.',
    });
    expect(await rates.rateFor(db, 'EUR', '2024-03-02')).toEqual({ rate: 1, date: '2024-03-02' });
  });

  it('reads inside the transaction it is given', async () => {
    const rates = service();
    const found = await ctx.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`insert into exchange_rates (currency, rate_date, rate, source, created_by) values ('CHF', '2024-03-01', 0.9558, 'manual', 'Test')`,
      );
      return rates.rateFor(tx, 'CHF', '2024-03-03');
    });
    expect(found).toEqual({ rate: 0.9558, date: '2024-03-01' });
  });
});
