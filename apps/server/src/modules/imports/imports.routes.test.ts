import type { Import } from '@back-office/contract/imports';
import type { Subscriber } from '@back-office/contract/subscribers';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator, type TestApi } from '../../../test/api.ts';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import {
  buildSubscriber,
  insertDonation,
  insertReferenceItem,
  insertSubscribers,
} from '../../../test/factories.ts';
import {
  commitAndRun as commitAndRunJob,
  csv,
  dryRun,
  multipart,
  uploaded as uploadedFile,
  upload as uploadFile,
} from '../../../test/imports.ts';

const ctx = useTestApp();

const upload = (name: string, bytes: Buffer, kind = 'subscribers', token?: string) =>
  uploadFile(ctx, name, bytes, kind, token);
const uploaded = (name: string, bytes: Buffer, kind = 'subscribers') => uploadedFile(ctx, name, bytes, kind);
const commitAndRun = (api: TestApi, id: number, decisions: Array<{ row: number; action: string }> = []) =>
  commitAndRunJob(ctx, api, id, decisions);

async function searchByEmail(api: TestApi, lastName: string) {
  const found = await api.expectStatus<{ models: Array<{ id: number; name: string }> }>(
    200,
    'GET',
    `/api/subscribers/?name=${encodeURIComponent(lastName)}`,
  );
  return found.models;
}

describe('imports: reading the file', () => {
  it('reads a Windows-1252 CSV with ";" and French headers, and guesses the mapping', async () => {
    const bytes = iconv.encode(
      'Prénom;Nom;Courriel;Ville;Code postal;Pays;Inutile\r\nÉlodie;Lefèvre;elodie@example.org;Orléans;45000;France;x\r\nZoé;Müller;;Genève;1204;Suisse;y\r\n',
      'win1252',
    );
    const created = await uploaded('registre.csv', bytes);
    expect(created).toMatchObject({
      kind: 'subscribers',
      fileName: 'registre.csv',
      status: 'uploaded',
      rowCount: 2,
    });
    expect(created.columns.map((column) => column.header)).toEqual([
      'Prénom',
      'Nom',
      'Courriel',
      'Ville',
      'Code postal',
      'Pays',
      'Inutile',
    ]);
    expect(created.columns[0]?.samples).toEqual(['Élodie', 'Zoé']);
    expect(created.mapping).toMatchObject({
      firstName: 0,
      lastName: 1,
      email: 2,
      town: 3,
      postcode: 4,
      country: 5,
      notes: null,
    });
  });

  it('reads an XLSX file, dates as days, and maps the headers of our own export exactly', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Subscribers');
    sheet.addRow(['First name', 'Last name', 'Start date', 'Amount', 'Still on mailing list']);
    sheet.addRow(['Jean', 'Dupont', new Date(Date.UTC(2024, 2, 15)), 12.5, true]);
    const created = await uploaded('export.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(created.rowCount).toBe(1);
    expect(created.mapping).toMatchObject({
      firstName: 0,
      lastName: 1,
      startDate: 2,
      amount: 3,
      stillOnMailingList: 4,
    });
    expect(created.columns[2]?.samples).toEqual(['2024-03-15']);
    expect(created.columns[3]?.samples).toEqual(['12.5']);
  });

  it.each([
    ['an empty file', Buffer.alloc(0), 'The file is empty.'],
    ['a binary file', Buffer.from('%PDF-1.7\n\u0000\u0001\u0002 binary', 'latin1'), 'neither CSV nor XLSX'],
    ['a file without a header row', csv(['Jean;Dupont;jean@example.org']), 'header row'],
    ['a header and no rows', csv(['Prénom;Nom']), 'no rows under its header row'],
    ['a header naming a column twice', csv(['Nom;Prénom;Nom', 'a;b;c']), 'twice'],
    ['a damaged XLSX', Buffer.from('PK\u0003\u0004 not really a zip', 'latin1'), 'neither CSV nor XLSX'],
  ])('refuses %s with 400 imports.bad_file', async (_name, bytes, message) => {
    const response = await upload('file.csv', bytes);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'imports.bad_file' });
    expect(response.json().detail).toContain(message);
  });

  it('refuses more than 1,000,000 rows, and a file over 50 MB', async () => {
    const tooManyRows = Buffer.from(`Nom\n${'x\n'.repeat(1_000_001)}`);
    const rows = await upload('many.csv', tooManyRows);
    expect(rows.statusCode).toBe(400);
    expect(rows.json().detail).toContain('at most 1,000,000');

    const tooLarge = Buffer.alloc(50 * 1024 * 1024 + 1, 'a');
    const large = await upload('large.csv', tooLarge);
    expect(large.statusCode).toBe(400);
    expect(large.json().detail).toContain('over 50 MB');
  }, 60_000);

  it('refuses an upload without kind, without file, or not as multipart, naming what is missing', async () => {
    const { id_token: token } = await login(ctx);
    const noKind = multipart({}, { name: 'a.csv', bytes: csv(['Nom', 'x']) });
    const withoutKind = await ctx.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...bearer(token), 'content-type': noKind.contentType },
      payload: noKind.payload,
    });
    expect(withoutKind.statusCode).toBe(400);
    expect(withoutKind.json().errors).toEqual([{ path: 'kind', message: 'Choose what the file holds.' }]);

    const noFile = multipart({ kind: 'subscribers' });
    const withoutFile = await ctx.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...bearer(token), 'content-type': noFile.contentType },
      payload: noFile.payload,
    });
    expect(withoutFile.statusCode).toBe(400);
    expect(withoutFile.json().errors).toEqual([{ path: 'file', message: 'Choose a file.' }]);

    const asJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: bearer(token),
      payload: { kind: 'subscribers' },
    });
    expect(asJson.statusCode).toBe(400);
    expect(asJson.json()).toMatchObject({ code: 'imports.bad_file' });
  });

  it('is for Administrators only', async () => {
    const { tokens } = await createSignedInUser(ctx, { role: 'User' });
    const response = await upload('a.csv', csv(['Nom', 'x']), 'subscribers', tokens.id_token);
    expect(response.statusCode).toBe(403);
    const api = apiClient(ctx, tokens.id_token);
    expect((await api.get('/api/imports')).status).toBe(403);
  });
});

describe('imports: mapping and dry run', () => {
  it('checks every row without writing: errors per field, duplicates of the register and of the file', async () => {
    const api = await asAdministrator(ctx);
    await api.expectStatus(201, 'POST', '/api/tags', { name: 'Bénévole' });
    const [existing] = await insertSubscribers(ctx, [
      buildSubscriber({ firstName: 'Marc', lastName: 'Aubert', email: 'marc.aubert@example.org' }),
    ]);
    const created = await uploaded(
      'adherents.csv',
      csv([
        'Prénom;Nom;Email;Pays;Date de début;Montant;Tags',
        'Élodie;Lefèvre;elodie@example.org;france;01/02/2024;12,50;Bénévole',
        'Paul;Sans;pas-un-email;France;31/02/2024;douze;',
        'Marc;Aubert;MARC.AUBERT@example.org;France;;;',
        'Inès;Roux;ines@example.org;Atlantide;;;Inconnu',
        'Élodie;Lefèvre-bis;elodie@example.org;France;;;',
      ]),
    );
    const before = await api.expectStatus<{ count: number }>(200, 'GET', '/api/subscribers/');
    const checked = await dryRun(api, created.id);
    expect(checked).toMatchObject({ valid: 1, invalid: 2, duplicates: 2, count: 5 });
    const byRow = new Map(checked.rows.map((row) => [row.row, row]));
    expect(byRow.get(1)).toMatchObject({
      status: 'valid',
      values: { firstName: 'Élodie', country: 'france' },
    });
    expect(byRow.get(2)?.status).toBe('invalid');
    expect(byRow.get(2)?.errors).toEqual(
      expect.arrayContaining([
        { field: 'startDate', message: 'Dates are written DD/MM/YYYY.' },
        { field: 'amount', message: 'Write a number.' },
        { field: 'email', message: 'Valid email is required' },
      ]),
    );
    expect(byRow.get(3)).toMatchObject({
      status: 'duplicate',
      matchId: existing?.id,
      matchReasons: ['email'],
    });
    expect(byRow.get(4)?.errors).toEqual(
      expect.arrayContaining([
        { field: 'country', message: 'No country is named "Atlantide".' },
        { field: 'tags', message: 'No tag is named "Inconnu".' },
      ]),
    );
    expect(byRow.get(5)).toMatchObject({ status: 'duplicate', matchId: null, matchReasons: ['file'] });
    // Nothing was written to the register.
    expect((await api.expectStatus<{ count: number }>(200, 'GET', '/api/subscribers/')).count).toBe(
      before.count,
    );

    const invalidOnly = await dryRun(api, created.id, '?status=invalid&listlength=1&listfrom=2');
    expect(invalidOnly.count).toBe(2);
    expect(invalidOnly.rows.map((row) => row.row)).toEqual([4]);
    const imported = await api.expectStatus<Import>(200, 'GET', `/api/imports/${created.id}`);
    expect(imported).toMatchObject({ status: 'checked', dryRun: { valid: 1, invalid: 2, duplicates: 2 } });
  });

  it('accepts names it would create when told to, and a changed mapping needs a new dry run', async () => {
    const api = await asAdministrator(ctx);
    const created = await uploaded('a.csv', csv(['Prénom;Nom;Pays;Catégorie', 'Inès;Roux;Atlantide;Mécène']));
    expect((await dryRun(api, created.id)).invalid).toBe(1);
    const remapped = await api.expectStatus<Import>(200, 'PUT', `/api/imports/${created.id}/mapping`, {
      mapping: created.mapping,
      options: { ...created.options, createMissingReferences: true },
    });
    expect(remapped).toMatchObject({ status: 'uploaded', dryRun: null });
    expect(await dryRun(api, created.id)).toMatchObject({ valid: 1, invalid: 0 });
  });

  it('refuses a mapping naming an unknown field or column with 400 naming it', async () => {
    const api = await asAdministrator(ctx);
    const created = await uploaded('a.csv', csv(['Prénom;Nom', 'Inès;Roux']));
    const response = await api.send('PUT', `/api/imports/${created.id}/mapping`, {
      mapping: { firstName: 0, lastName: 7, shoeSize: 1 },
      options: created.options,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'imports.bad_mapping',
      errors: [
        { path: 'mapping.lastName', message: 'The file has no column 8.' },
        { path: 'mapping.shoeSize', message: 'There is no field "shoeSize".' },
      ],
    });
  });
});

describe('imports: commit and undo', () => {
  it('creates the valid rows, merges a duplicate when told, skips the rest, with history, then undoes it', async () => {
    const api = await asAdministrator(ctx);
    await api.expectStatus(201, 'POST', '/api/tags', { name: 'Bénévole' });
    const [existing] = await insertSubscribers(ctx, [
      buildSubscriber({
        firstName: 'Marc',
        lastName: 'Aubert',
        email: 'marc.aubert@example.org',
        town: 'Lyon',
      }),
    ]);
    const created = await uploaded(
      'adherents.csv',
      csv([
        'Prénom;Nom;Email;Ville;Tags',
        'Élodie;Lefèvre;elodie@example.org;Orléans;Bénévole',
        'Paul;Sans;pas-un-email;Paris;',
        'Marc;Aubert;marc.aubert@example.org;Grenoble;Bénévole',
        'Zoé;Müller;zoe@example.org;Genève;',
      ]),
    );
    await dryRun(api, created.id);
    const countsBefore = await api.expectStatus<{ data: number[] }>(200, 'GET', '/api/dash/subs');
    const done = await commitAndRun(api, created.id, [
      { row: 3, action: 'merge' },
      { row: 4, action: 'skip' },
    ]);
    const total = (counts: { data: number[] }) => counts.data.reduce((sum, value) => sum + value, 0);
    // The dashboard's counts follow the import (one new subscriber on the list) and its undo.
    expect(total(await api.expectStatus(200, 'GET', '/api/dash/subs'))).toBe(total(countsBefore) + 1);
    expect(done).toMatchObject({
      status: 'committed',
      created: 1,
      merged: 1,
      skipped: 2,
      processed: 4,
      errors: [],
    });

    const [elodie] = await searchByEmail(api, 'Lefèvre');
    expect(elodie).toBeDefined();
    const record = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${elodie?.id}`);
    expect(record).toMatchObject({ firstName: 'Élodie', town: 'Orléans', tags: ['Bénévole'], currencyId: 1 });
    const history = await api.expectStatus<Array<{ description: string }>>(
      200,
      'GET',
      `/api/subscribers/${elodie?.id}/history`,
    );
    expect(history.map((entry) => entry.description)).toEqual(['Imported from adherents.csv.']);
    expect(await searchByEmail(api, 'Müller')).toEqual([]);
    const marc = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${existing?.id}`);
    expect(marc).toMatchObject({ town: 'Grenoble', tags: ['Bénévole'] });
    const marcHistory = await api.expectStatus<Array<{ description: string }>>(
      200,
      'GET',
      `/api/subscribers/${existing?.id}/history`,
    );
    expect(marcHistory[0]?.description).toContain('Merged with row 3 of the import of adherents.csv');
    expect(marcHistory[0]?.description).toContain('Lyon');

    // A second commit is refused: the import is done.
    const again = await api.send('POST', `/api/imports/${created.id}/commit`, { decisions: [] });
    expect(again.status).toBe(409);

    const undone = await api.expectStatus<Import>(200, 'POST', `/api/imports/${created.id}/undo`);
    expect(undone.status).toBe('undone');
    expect(total(await api.expectStatus(200, 'GET', '/api/dash/subs'))).toBe(total(countsBefore));
    expect(await searchByEmail(api, 'Lefèvre')).toEqual([]);
    const restored = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${existing?.id}`);
    expect(restored).toMatchObject({ town: 'Lyon', tags: [] });
    expect((await api.send('POST', `/api/imports/${created.id}/undo`)).status).toBe(409);
  });

  it('writes nothing when one row cannot be written at commit time, and says which', async () => {
    const api = await asAdministrator(ctx);
    const tag = await api.expectStatus<{ id: number }>(201, 'POST', '/api/tags', { name: 'Éphémère' });
    const created = await uploaded(
      'b.csv',
      csv(['Prénom;Nom;Tags', 'Anne;Premier;', 'Bruno;Second;Éphémère', 'Chloé;Troisième;']),
    );
    expect((await dryRun(api, created.id)).valid).toBe(3);
    await api.expectStatus(204, 'DELETE', `/api/tags/${tag.id}`);
    const failed = await commitAndRun(api, created.id);
    expect(failed).toMatchObject({
      status: 'failed',
      created: 0,
      errors: [{ row: 2, field: 'tags', message: 'No tag is named "Éphémère".' }],
    });
    expect(failed.failure).toContain('nothing was imported');
    expect(await searchByEmail(api, 'Premier')).toEqual([]);
    // A commit needs a fresh dry run after a failure.
    expect((await api.send('POST', `/api/imports/${created.id}/commit`, { decisions: [] })).status).toBe(409);
  });

  it('refuses to undo with 409 naming the subscribers changed or given a donation since', async () => {
    const api = await asAdministrator(ctx);
    const created = await uploaded(
      'c.csv',
      csv(['Prénom;Nom', 'Anne;Changée', 'Bruno;Donateur', 'Chloé;Intacte']),
    );
    await dryRun(api, created.id);
    await commitAndRun(api, created.id);
    const [anne] = await searchByEmail(api, 'Changée');
    const [bruno] = await searchByEmail(api, 'Donateur');
    const anneRecord = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${anne?.id}`);
    await api.expectStatus(200, 'PATCH', `/api/subscribers/${anne?.id}`, { ...anneRecord, town: 'Nantes' });
    await insertDonation(ctx, bruno?.id ?? 0);
    const refused = await api.send<{ code: string; detail: string }>(
      'POST',
      `/api/imports/${created.id}/undo`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('imports.changed_since');
    expect(refused.body.detail).toContain(`Anne Changée (${anne?.id})`);
    expect(refused.body.detail).toContain(`Bruno Donateur (${bruno?.id})`);
    expect(refused.body.detail).not.toContain('Intacte');
    expect(await searchByEmail(api, 'Intacte')).toHaveLength(1);
  });

  it('round trip: our own XLSX export imports back with every field equal', async () => {
    const api = await asAdministrator(ctx);
    await api.expectStatus(201, 'POST', '/api/tags', { name: 'Export' });
    const category = await insertReferenceItem(ctx, 'cats', { name: 'Mécène' });
    const subscription = await insertReferenceItem(ctx, 'subs', { name: 'Annuel' });
    const originals = await insertSubscribers(ctx, [
      buildSubscriber({
        title: 'Mme',
        association: 'Amis du livre',
        address2: 'Bâtiment B',
        address3: 'BP 12',
        billingAddress: '1 rue du Port\n13002 Marseille',
        phone: '04 91 00 00 00',
        mobile: '06 00 00 00 00',
        fax: '04 91 00 00 01',
        onMailChimpList: true,
        newsletterEmail: 'lettre@example.org',
        emailConsentDate: '2024-03-09',
        emailConsentSource: 'Bulletin papier',
        paymentMethodId: 1,
        bank: 'Banque Populaire',
        iban: 'FR7630006000011234567890189',
        amount: 12.5,
        rum: 'RUM-0001',
        startDate: '2024-01-15',
        endDate: '2025-01-14',
        subscriptionTypeId: subscription.id,
        categoryId: category.id,
        copies: 3,
        recommendedBy: 'Jean Martin',
        inactive: true,
        inactiveReason: 'Déménagé',
        tags: ['Export'],
        notes: 'Une note; avec "guillemets"',
      }),
      buildSubscriber({ countryId: 2, currencyId: 2, postcode: '01000' }),
    ]);
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/subscribers/export',
      headers: bearer((await login(ctx)).id_token),
    });
    expect(exported.statusCode).toBe(200);
    for (const original of originals)
      await api.expectStatus(204, 'DELETE', `/api/subscribers/${original.id}`);

    const created = await uploaded('export.xlsx', exported.rawPayload);
    expect(Object.values(created.mapping).filter((column) => column === null)).toEqual([]);
    const checked = await dryRun(api, created.id);
    expect(checked, JSON.stringify(checked.rows)).toMatchObject({ valid: 2, invalid: 0, duplicates: 0 });
    expect((await commitAndRun(api, created.id)).created).toBe(2);

    for (const original of originals) {
      const [found] = await searchByEmail(api, original.lastName);
      const copy = await api.expectStatus<Subscriber>(200, 'GET', `/api/subscribers/${found?.id}`);
      const { id: _id, version: _version, addedBy: _by, addedOn: _on, ...fields } = copy;
      const {
        id: _oid,
        version: _ov,
        addedBy: _oby,
        addedOn: _oon,
        ...expected
      } = original as unknown as Subscriber;
      expect(fields).toEqual(expected);
    }
  });
});

describe('imports of donations', () => {
  it('finds each donor by email or by name and postcode, checks each gift, creates them with history, and undoes it', async () => {
    const api = await asAdministrator(ctx);
    const [anne, bruno] = await insertSubscribers(ctx, [
      buildSubscriber({ title: '', firstName: 'Anne', lastName: 'Roux', email: 'anne@example.org' }),
      buildSubscriber({ title: '', firstName: 'Bruno', lastName: 'Perret', email: '', postcode: '74000' }),
    ]);
    if (!anne || !bruno) throw new Error('no donors');
    await insertDonation(ctx, anne.id, { amount: 50, donationDate: '2024-03-01' });
    const created = await uploaded(
      'dons.csv',
      csv([
        'Courriel;Prénom;Nom;Code postal;Date;Montant;Remarques',
        'ANNE@example.org;;;;15/01/2024;25,50;Chèque',
        ';Bruno;Perret;74000;20/02/2024;100;',
        'personne@example.org;;;;20/02/2024;10;',
        'anne@example.org;;;;01/03/2024;50;',
        'anne@example.org;;;;01/01/2099;10;',
      ]),
      'donations',
    );
    expect(created.kind).toBe('donations');
    expect(created.mapping).toMatchObject({
      email: 0,
      firstName: 1,
      lastName: 2,
      postcode: 3,
      donationDate: 4,
      amount: 5,
      notes: 6,
      subscriberId: null,
    });
    const checked = await dryRun(api, created.id);
    expect(checked).toMatchObject({ valid: 2, invalid: 2, duplicates: 1 });
    const byRow = new Map(checked.rows.map((row) => [row.row, row]));
    expect(byRow.get(3)?.errors).toEqual([
      { field: 'email', message: 'No subscriber of the register matches this donor.' },
    ]);
    expect(byRow.get(4)).toMatchObject({
      status: 'duplicate',
      matchId: anne.id,
      matchReasons: ['same donor, date and amount'],
    });
    expect(byRow.get(5)?.errors).toEqual([
      { field: 'donationDate', message: 'The donation date cannot be in the future.' },
    ]);

    const done = await commitAndRun(api, created.id);
    expect(done).toMatchObject({ status: 'committed', created: 2, skipped: 3 });
    const gifts = await api.expectStatus<{ models: Array<{ amount: number; dateAdded: string }> }>(
      200,
      'GET',
      `/api/donations?id=${anne.id}`,
    );
    expect(gifts.models.map((gift) => [gift.dateAdded, gift.amount])).toEqual([
      ['2024-03-01', 50],
      ['2024-01-15', 25.5],
    ]);
    const history = await api.expectStatus<Array<{ description: string }>>(
      200,
      'GET',
      `/api/subscribers/${bruno.id}/history`,
    );
    expect(history[0]?.description).toBe('Donation of 100,00 € dated 2024-02-20 imported from dons.csv.');

    await api.expectStatus(200, 'POST', `/api/imports/${created.id}/undo`);
    const after = await api.expectStatus<{ count: number }>(200, 'GET', `/api/donations?id=${bruno.id}`);
    expect(after.count).toBe(0);
  });

  it('refuses to undo once a tax receipt covers an imported gift, naming it', async () => {
    const api = await asAdministrator(ctx);
    const [anne] = await insertSubscribers(ctx, [buildSubscriber({ email: 'anne@example.org' })]);
    const created = await uploaded(
      'dons.csv',
      csv(['Email;Date;Amount', 'anne@example.org;15/01/2024;40']),
      'donations',
    );
    await dryRun(api, created.id);
    await commitAndRun(api, created.id);
    const gifts = await api.expectStatus<{ models: Array<{ id: number }> }>(
      200,
      'GET',
      `/api/donations?id=${anne?.id}`,
    );
    const receipt = await api.send('GET', `/api/donations/receipt/${gifts.models[0]?.id}`);
    expect(receipt.status).toBe(200);
    const refused = await api.send<{ code: string; detail: string }>(
      'POST',
      `/api/imports/${created.id}/undo`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('the donation of 40,00 € dated 2024-01-15');
  });
});
