import { addCalendarDays, calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import type { Import, ImportDryRun } from '@back-office/contract/imports';
import type { HistoryEntry, Subscriber } from '@back-office/contract/subscribers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { asAdministrator, type TestApi } from '../../../test/api.ts';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber } from '../../../test/factories.ts';
import { readCells } from '../../../test/xlsx.ts';

/** Email consent on the subscriber record (GDPR art. 7): saved, read, in history, export and import. */
const ctx = useTestApp();

const today = () => calendarDay(ctx.clock.now(), DEFAULT_TIME_ZONE);

async function create(api: TestApi, overrides: Parameters<typeof buildSubscriber>[0] = {}) {
  return api.expectStatus<Subscriber>(201, 'POST', '/api/subscribers', buildSubscriber(overrides));
}

describe('email consent on the subscriber record', () => {
  it('is saved and read back, empty by default, and its changes are written in the history', async () => {
    const api = await asAdministrator(ctx);
    const blank = await api.expectStatus<Subscriber>(200, 'GET', '/api/subscribers/new');
    expect(blank).toMatchObject({ emailConsentDate: null, emailConsentSource: '' });
    const plain = await create(api);
    expect(plain).toMatchObject({ emailConsentDate: null, emailConsentSource: '' });

    const zoe = await create(api, { emailConsentDate: '2024-05-02', emailConsentSource: ' Formulaire web ' });
    expect(zoe).toMatchObject({ emailConsentDate: '2024-05-02', emailConsentSource: 'Formulaire web' });
    expect(await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${zoe.id}`)).toMatchObject({
      emailConsentDate: '2024-05-02',
      emailConsentSource: 'Formulaire web',
    });

    // Given today (the organisation's day) it is accepted: only a later day is refused.
    const { addedBy: _by, addedOn: _on, hidden: _hidden, ...fields } = zoe;
    const changed = await api.expectStatus<Subscriber>(200, 'PATCH', `/api/subscribers/${zoe.id}`, {
      ...fields,
      emailConsentDate: today(),
      emailConsentSource: 'Bulletin papier',
    });
    expect(changed).toMatchObject({ emailConsentDate: today(), emailConsentSource: 'Bulletin papier' });
    const [latest] = await api.expectStatus<HistoryEntry[]>(200, 'GET', `/api/subscribers/${zoe.id}/history`);
    expect(latest?.description).toBe(
      `Changed email consent date from '2024-05-02' to '${today()}'; email consent source from 'Formulaire web' to 'Bulletin papier'.`,
    );
  });

  it('answers 400 naming emailConsentDate for a day after today, a bad date or a source too long', async () => {
    const api = await asAdministrator(ctx);
    const tomorrow = addCalendarDays(today(), 1);
    const future = await api.send<{ code: string; errors: Array<{ path: string; message: string }> }>(
      'POST',
      '/api/subscribers',
      buildSubscriber({ emailConsentDate: tomorrow }),
    );
    expect(future.status).toBe(400);
    expect(future.body.code).toBe('subscribers.future_consent_date');
    expect(future.body.errors).toEqual([
      { path: 'emailConsentDate', message: 'The email consent date cannot be in the future.' },
    ]);

    const saved = await create(api);
    const { addedBy: _by, addedOn: _on, hidden: _hidden, ...fields } = saved;
    const futureUpdate = await api.patch<{ errors: Array<{ path: string }> }>(
      `/api/subscribers/${saved.id}`,
      {
        ...fields,
        emailConsentDate: tomorrow,
      },
    );
    expect(futureUpdate.status).toBe(400);
    expect(futureUpdate.body.errors.map((error) => error.path)).toEqual(['emailConsentDate']);

    for (const [field, value] of [
      ['emailConsentDate', '02/05/2024'],
      ['emailConsentDate', '2024-02-30'],
      ['emailConsentDate', 20240502],
      ['emailConsentSource', 'x'.repeat(201)],
    ] as const) {
      const refused = await api.post<{ errors: Array<{ path: string }> }>(
        '/api/subscribers',
        buildSubscriber({ [field]: value } as never),
      );
      expect(refused.status, `${field} ${value}`).toBe(400);
      expect(refused.body.errors.map((error) => error.path)).toContain(field);
    }
    expect(await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${saved.id}`)).toMatchObject({
      emailConsentDate: null,
    });
  });

  it('is exported as a date and a text right after the newsletter email', async () => {
    const api = await asAdministrator(ctx);
    await create(api, { lastName: 'Avec', emailConsentDate: '2024-05-02', emailConsentSource: 'Import' });
    await create(api, { lastName: 'Sans' });
    const exported = await ctx.app.inject({
      url: '/api/subscribers/export',
      headers: bearer((await login(ctx)).id_token),
    });
    expect(exported.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const at = headers.indexOf('Newsletter email');
    expect(headers.slice(at, at + 3)).toEqual([
      'Newsletter email',
      'Email consent date',
      'Email consent source',
    ]);
    const [avec, sans] = await readCells(exported.rawPayload);
    expect(avec?.['Email consent date']).toEqual({
      value: new Date('2024-05-02T00:00:00Z'),
      type: ExcelJS.ValueType.Date,
      numFmt: 'dd/mm/yyyy',
    });
    expect(avec?.['Email consent source']?.value).toBe('Import');
    expect(sans?.['Email consent date']?.value).toBeNull();
  });

  it('is imported from French headers, dates in the import format, a future date being an error of its row', async () => {
    const api = await asAdministrator(ctx);
    const tomorrow = addCalendarDays(today(), 1).split('-').reverse().join('/');
    const file = Buffer.from(
      [
        'Prénom;Nom;Date du consentement;Origine du consentement',
        'Zoé;Consentie;02/05/2024;Bulletin papier',
        `Marc;Futur;${tomorrow};Formulaire web`,
        'Léa;Illisible;31/02/2024;Formulaire web',
        'Paul;Aucun;;',
      ].join('\r\n'),
      'utf8',
    );
    const boundary = '----consent-import';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nsubscribers\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="consent.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: {
        ...bearer((await login(ctx)).id_token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const created = upload.json() as Import;
    expect(created.mapping).toMatchObject({ emailConsentDate: 2, emailConsentSource: 3 });
    await api.expectStatus(200, 'PUT', `/api/imports/${created.id}/mapping`, {
      mapping: created.mapping,
      options: {
        dateFormat: 'DD/MM/YYYY',
        decimalSeparator: ',',
        createMissingReferences: false,
        defaultCurrencyId: 1,
      },
    });
    const checked = await api.expectStatus<ImportDryRun>(200, 'POST', `/api/imports/${created.id}/dry-run`);
    expect(checked).toMatchObject({ valid: 2, invalid: 2 });
    const errors = checked.rows.flatMap((row) => row.errors.map((error) => ({ row: row.row, ...error })));
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          row: 2,
          field: 'emailConsentDate',
          message: 'The email consent date cannot be in the future.',
        }),
        expect.objectContaining({
          row: 3,
          field: 'emailConsentDate',
          message: 'Dates are written DD/MM/YYYY.',
        }),
      ]),
    );

    // Invalid rows are skipped by the commit.
    await api.expectStatus(202, 'POST', `/api/imports/${created.id}/commit`, { decisions: [] });
    await ctx.app.jobs.runDue();
    const found = await api.expectStatus<{ models: Array<{ id: number }> }>(
      200,
      'GET',
      '/api/subscribers/?name=Consentie',
    );
    const zoe = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${found.models[0]?.id}`);
    expect(zoe).toMatchObject({ emailConsentDate: '2024-05-02', emailConsentSource: 'Bulletin papier' });
  });
});
