import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { readCells, readSheet } from '../../../test/xlsx.ts';

const ctx = useTestApp();

async function seed() {
  const headers = bearer((await login(ctx)).id_token);
  const [zoe, hans] = await insertSubscribers(ctx, [
    buildSubscriber({ firstName: 'Zoé', lastName: 'Martin', postcode: '01200' }),
    buildSubscriber({
      firstName: '=cmd',
      lastName: 'Müller',
      currencyId: 2,
      postcode: '1201',
      association: '@SUM(A1:A9)',
      address1: '-2+3 chemin du Lac',
    }),
  ]);
  for (const [subid, amount, donationDate] of [
    [zoe?.id, 10, '2026-01-05'],
    [zoe?.id, 15.5, '2026-02-05'],
    [hans?.id, 100, '2026-03-05'],
  ] as const) {
    await ctx.app.inject({
      method: 'POST',
      url: '/api/donations',
      headers,
      payload: { subid, amount, donationDate },
    });
  }
  return headers;
}

describe('GET /api/donations/export', () => {
  it('gives one row per donation with isdetailed, newest first, real dates and numbers, formula-safe', async () => {
    const headers = await seed();
    const response = await ctx.app.inject({
      url: '/api/donations/export?isdetailed=true',
      headers: { ...headers, accept: 'application/pdf' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toContain('filename="donation-details-export.xlsx"');
    const [header, ...rows] = (await readSheet(response.rawPayload)).rows;
    expect(header?.slice(0, 4)).toEqual(['Donation id', 'Date', 'Amount', 'Currency']);
    expect(rows.map((row) => row[2])).toEqual([100, 15.5, 10]);
    expect(rows[0]?.[1]).toBeInstanceOf(Date);
    expect(rows[0]?.[3]).toBe('CHF');
    expect(rows[0]?.[7]).toBe("'=cmd");
  });

  it('writes postcodes as text, amounts with 2 decimals and dates as dd/mm/yyyy dates', async () => {
    const headers = await seed();
    const detailed = await readCells(
      (await ctx.app.inject({ url: '/api/donations/export?isdetailed=true', headers })).rawPayload,
    );
    const oldest = detailed.at(-1);
    expect(oldest?.Postcode).toEqual({ value: '01200', type: ExcelJS.ValueType.String, numFmt: '@' });
    expect(oldest?.Amount).toEqual({ value: 10, type: ExcelJS.ValueType.Number, numFmt: '#,##0.00' });
    expect(oldest?.Date).toEqual({
      value: new Date('2026-01-05T00:00:00Z'),
      type: ExcelJS.ValueType.Date,
      numFmt: 'dd/mm/yyyy',
    });
    const donors = await readCells(
      (await ctx.app.inject({ url: '/api/donations/export?isdetailed=false', headers })).rawPayload,
    );
    expect(donors[0]?.Postcode?.value).toBe('01200');
    expect(donors[0]?.Total).toEqual({ value: 25.5, type: ExcelJS.ValueType.Number, numFmt: '#,##0.00' });
  });

  it('gives one row per donor and currency with the total, applying the filters', async () => {
    const headers = await seed();
    const response = await ctx.app.inject({ url: '/api/donations/export?isdetailed=false', headers });
    expect(response.headers['content-disposition']).toContain('filename="donation-subscribers-export.xlsx"');
    const [header, ...rows] = (await readSheet(response.rawPayload)).rows;
    expect(header).toContain('Total');
    const total = header?.indexOf('Total') ?? -1;
    expect(rows.map((row) => [row[3], row[total]])).toEqual([
      ['Martin', 25.5],
      ['Müller', 100],
    ]);
    // Text that a spreadsheet would run as a formula is written as text (docs/security.md §Input,
    // output and headers).
    expect(rows[1]?.slice(2, 6)).toEqual(["'=cmd", 'Müller', "'@SUM(A1:A9)", "'-2+3 chemin du Lac"]);
    const filtered = await readSheet(
      (await ctx.app.inject({ url: '/api/donations/export?zip=12', headers })).rawPayload,
    );
    expect(filtered.rows).toHaveLength(2);
    expect((await ctx.app.inject({ url: '/api/donations/export?addedafter=nope', headers })).statusCode).toBe(
      400,
    );
  });
});
