import type { Import } from '@back-office/contract/imports';
import type { Product, StockMovementList } from '@back-office/contract/products';
import type { Sale } from '@back-office/contract/sales';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asAdministrator, type TestApi } from '../../../test/api.ts';
import { useTestApp } from '../../../test/context.ts';
import {
  buildSale,
  buildSubscriber,
  insertProduct,
  insertSale,
  insertSubscribers,
} from '../../../test/factories.ts';
import { commitAndRun, csv, dryRun, uploaded } from '../../../test/imports.ts';
import { queryRows } from '../../db/client.ts';

const ctx = useTestApp();

async function catalogue(api: TestApi) {
  return api.expectStatus<Product[]>(200, 'GET', '/api/products');
}

async function movements(api: TestApi, productId: number) {
  return api.expectStatus<StockMovementList>(200, 'GET', `/api/products/${productId}/movements`);
}

describe('imports of products', () => {
  it('creates new products with their stock as an import movement, merges one of the same name, and undoes both', async () => {
    const api = await asAdministrator(ctx);
    const existing = await insertProduct(ctx, {
      name: 'Calendrier 2025',
      euroPrice: 10,
      swissPrice: 11,
      currentStock: 40,
    });
    const created = await uploaded(
      ctx,
      'catalogue.csv',
      csv([
        'Désignation;Prix (€);Prix (CHF);Actif;Stock;Stock minimum',
        'Livre de recettes;24,90;27,50;oui;120;10',
        'CALENDRIER 2025;12;13,5;;55;',
        'Affiche;abc;5;non;0;0',
        'Livre de Recettes;20;22;oui;0;0',
        'CD;5;6;oui;0;0',
      ]),
      'products',
    );
    expect(created.mapping).toEqual({
      name: 0,
      euroPrice: 1,
      swissPrice: 2,
      active: 3,
      currentStock: 4,
      minStockAlert: 5,
    });
    const checked = await dryRun(api, created.id);
    expect(checked).toMatchObject({ valid: 1, invalid: 2, duplicates: 2 });
    const byRow = new Map(checked.rows.map((row) => [row.row, row]));
    expect(byRow.get(2)).toMatchObject({
      status: 'duplicate',
      matchId: existing.id,
      matchReasons: ['same name'],
    });
    expect(byRow.get(3)?.errors).toEqual([{ field: 'euroPrice', message: 'Write a number.' }]);
    expect(byRow.get(4)).toMatchObject({ status: 'duplicate', matchId: null, matchReasons: ['file'] });
    expect(byRow.get(5)?.errors).toEqual([{ field: 'name', message: 'Name is required' }]);

    const done = await commitAndRun(ctx, api, created.id, [{ row: 2, action: 'merge' }]);
    expect(done).toMatchObject({ status: 'committed', created: 1, merged: 1, skipped: 3 });
    const products = await catalogue(api);
    const book = products.find((product) => product.name === 'Livre de recettes');
    expect(book).toMatchObject({
      euroPrice: 24.9,
      swissPrice: 27.5,
      active: true,
      currentStock: 120,
      minStockAlert: 10,
    });
    // The row's filled-in cells only: the empty "Actif" and "Stock minimum" keep the product's own.
    expect(products.find((product) => product.id === existing.id)).toMatchObject({
      name: 'Calendrier 2025',
      euroPrice: 12,
      swissPrice: 13.5,
      active: true,
      currentStock: 55,
      minStockAlert: 5,
    });
    expect((await movements(api, existing.id)).models[0]).toMatchObject({
      kind: 'import',
      quantity: 15,
      stockAfter: 55,
      reason: 'Imported from catalogue.csv',
    });
    expect((await movements(api, book?.id ?? 0)).models).toMatchObject([
      { kind: 'import', quantity: 120, stockAfter: 120 },
    ]);

    await api.expectStatus(200, 'POST', `/api/imports/${created.id}/undo`);
    const after = await catalogue(api);
    expect(after.map((product) => product.name)).toEqual(['Calendrier 2025']);
    expect(after[0]).toMatchObject({ euroPrice: 10, swissPrice: 11, currentStock: 40 });
    expect((await movements(api, existing.id)).models[0]).toMatchObject({
      kind: 'import',
      quantity: -15,
      stockAfter: 40,
      reason: 'The import of catalogue.csv was undone',
    });
  });

  it('refuses to undo with 409 once an imported product was sold or edited', async () => {
    const api = await asAdministrator(ctx);
    const created = await uploaded(
      ctx,
      'catalogue.csv',
      csv(['Name;euroPrice;swissPrice;Stock', 'Tasse émaillée;8;9;10']),
      'products',
    );
    await dryRun(api, created.id);
    await commitAndRun(ctx, api, created.id);
    const [cup] = await catalogue(api);
    const [buyer] = await insertSubscribers(ctx, [buildSubscriber()]);
    await insertSale(
      ctx,
      buildSale(buyer?.id ?? 0, [
        { productId: cup?.id ?? 0, quantity: 1, euroUnitPrice: 8, swissUnitPrice: 9 },
      ]),
    );
    const refused = await api.send<{ detail: string }>('POST', `/api/imports/${created.id}/undo`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(`Tasse émaillée (${cup?.id})`);
    expect(await catalogue(api)).toHaveLength(1);
  });
});

describe('imports of sales', () => {
  /** Two buyers and two products of the catalogue. */
  async function register() {
    const [anne, bruno] = await insertSubscribers(ctx, [
      buildSubscriber({ title: 'Mme', firstName: 'Anne', lastName: 'Roux', email: 'anne@example.org' }),
      buildSubscriber({
        title: '',
        firstName: 'Bruno',
        lastName: 'Perret',
        email: '',
        postcode: '74000',
        currencyId: 1,
      }),
    ]);
    const book = await insertProduct(ctx, {
      name: 'Livre de recettes',
      euroPrice: 20,
      swissPrice: 22,
      currentStock: 5,
    });
    const mug = await insertProduct(ctx, {
      name: 'Tasse émaillée',
      euroPrice: 8,
      swissPrice: 9,
      currentStock: 5,
    });
    if (!anne || !bruno) throw new Error('no buyers');
    return { anne, bruno, book, mug };
  }

  it('groups the lines of each sale by its number, finds buyer and products, checks the totals, keeps the numbers, and undoes it', async () => {
    const api = await asAdministrator(ctx);
    const { anne, bruno, book, mug } = await register();
    const created = await uploaded(
      ctx,
      'ventes.csv',
      csv([
        'ref,date,name,postcode,email,currency,discountPercentage,deliveryCharge,donation,total,product,quantity,unitPrice,lineTotal',
        '41,2024-03-02,Mme Anne Roux,,anne@example.org,€,10,4.50,0,44.10,livre de recettes,2,18.00,36.00',
        '41,2024-03-02,Mme Anne Roux,,anne@example.org,€,10,4.50,0,44.10,Tasse emaillee,1,,8.00',
        '42,2024-04-10,Bruno Perret,74000,,,0,0,5,21.00,Tasse émaillée,2,8,16',
        '43,2024-04-11,Bruno Perret,74000,,,0,0,0,99,Tasse émaillée,1,8,8',
        '44,2099-01-01,Bruno Perret,74000,,,0,0,0,,Inconnu,1,8,8',
      ]),
      'sales',
    );
    expect(created.mapping).toMatchObject({
      ref: 0,
      date: 1,
      fullName: 2,
      postcode: 3,
      email: 4,
      product: 10,
      quantity: 11,
    });
    await api.expectStatus(200, 'PUT', `/api/imports/${created.id}/mapping`, {
      mapping: created.mapping,
      options: { ...created.options, dateFormat: 'YYYY-MM-DD', decimalSeparator: '.' },
    });
    const checked = await dryRun(api, created.id);
    expect(checked).toMatchObject({ valid: 3, invalid: 2, duplicates: 0 });
    const byRow = new Map(checked.rows.map((row) => [row.row, row]));
    expect(byRow.get(4)?.errors).toEqual([
      {
        field: 'total',
        message: 'The sale comes to 8.00 by its lines, discount, donation and delivery charge, not 99.00.',
      },
    ]);
    expect(byRow.get(5)?.errors).toEqual([
      { field: 'date', message: 'The sale date cannot be in the future.' },
      { field: 'product', message: 'No product is named "Inconnu".' },
    ]);

    const done = await commitAndRun(ctx, api, created.id);
    expect(done).toMatchObject({ status: 'committed', created: 2, skipped: 2 });
    const sales = await api.expectStatus<Array<{ id: number; ref: number }>>(200, 'GET', '/api/sales');
    const first = sales.find((sale) => sale.ref === 41);
    const sale = await api.expectStatus<Sale>(200, 'GET', `/api/sales/${first?.id}`);
    expect(sale).toMatchObject({
      subscriberId: anne.id,
      total: 44.1,
      currencySymbol: '€',
      invoiceIssued: true,
    });
    expect(sale.saleDetails).toMatchObject([
      { productId: book.id, productName: 'Livre de recettes', quantity: 2, unitPrice: 18, lineTotal: 36 },
      { productId: mug.id, productName: 'Tasse émaillée', quantity: 1, unitPrice: 8, lineTotal: 8 },
    ]);
    expect(sales.some((found) => found.ref === 42)).toBe(true);
    // History, not a sale made today: the stock stays as the catalogue says.
    expect((await catalogue(api)).map((product) => product.currentStock)).toEqual([5, 5]);
    const history = await api.expectStatus<Array<{ description: string }>>(
      200,
      'GET',
      `/api/subscribers/${bruno.id}/history`,
    );
    expect(history[0]?.description).toBe('Sale #42 of 21,00 € dated 2024-04-10 imported from ventes.csv.');
    // The next sale made here takes the number after the file's.
    const next = await insertSale(
      ctx,
      buildSale(anne.id, [{ productId: mug.id, quantity: 1, euroUnitPrice: 8, swissUnitPrice: 9 }]),
    );
    expect(next.ref).toBe(45);

    // Importing the same file again finds every sale already there.
    const again = await uploaded(
      ctx,
      'ventes.csv',
      csv(['ref,date,email,product,quantity', '41,2024-03-02,anne@example.org,Tasse émaillée,1']),
      'sales',
    );
    await api.expectStatus(200, 'PUT', `/api/imports/${again.id}/mapping`, {
      mapping: again.mapping,
      options: { ...again.options, dateFormat: 'YYYY-MM-DD' },
    });
    expect(await dryRun(api, again.id)).toMatchObject({
      duplicates: 1,
      rows: [{ status: 'duplicate', matchId: first?.id, matchReasons: ['same sale number'] }],
    });

    await api.expectStatus(200, 'POST', `/api/imports/${created.id}/undo`);
    const left = await api.expectStatus<Array<{ ref: number }>>(200, 'GET', '/api/sales');
    expect(left.map((found) => found.ref)).toEqual([45]);
  });

  it('records no donation for the gift of an imported sale: gifts come with the donations import', async () => {
    const api = await asAdministrator(ctx);
    const { bruno } = await register();
    await insertProduct(ctx, { name: 'Dons', euroPrice: 10, swissPrice: 10, currentStock: 5 });
    const created = await uploaded(
      ctx,
      'ventes.csv',
      csv([
        'ref,date,name,postcode,email,currency,discountPercentage,deliveryCharge,donation,total,product,quantity,unitPrice,lineTotal',
        '50,2024-05-02,Bruno Perret,74000,,€,0,0,5,33.00,Tasse émaillée,1,8,8',
        '50,2024-05-02,Bruno Perret,74000,,€,0,0,5,33.00,Dons,2,10,20',
      ]),
      'sales',
    );
    await api.expectStatus(200, 'PUT', `/api/imports/${created.id}/mapping`, {
      mapping: created.mapping,
      options: { ...created.options, dateFormat: 'YYYY-MM-DD', decimalSeparator: '.' },
    });
    expect(await dryRun(api, created.id)).toMatchObject({ valid: 2, invalid: 0 });
    expect(await commitAndRun(ctx, api, created.id)).toMatchObject({ status: 'committed', created: 1 });
    const [sale] = await api.expectStatus<Array<{ ref: number; total: number }>>(200, 'GET', '/api/sales');
    expect(sale).toMatchObject({ ref: 50, total: 33 });
    const rows = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from donations`,
    );
    expect(rows[0]?.n).toBe(0);
    expect(
      await api.expectStatus<{ count: number }>(200, 'GET', `/api/donations?id=${bruno.id}`),
    ).toMatchObject({ count: 0 });
  });

  it('keeps the lines of a sale together where a batch of 500 rows ends', async () => {
    const api = await asAdministrator(ctx);
    await register();
    // 200 sales of 3 lines: rows 499 to 501 are one sale, across the first batch's end.
    const lines = Array.from(
      { length: 600 },
      (_, index) =>
        `${Math.floor(index / 3) + 1};02/03/2024;anne@example.org;Tasse émaillée;${(index % 3) + 1}`,
    );
    const created = await uploaded(
      ctx,
      'ventes.csv',
      csv(['ref;Date;Courriel;Produit;Quantité', ...lines]),
      'sales',
    );
    expect(await dryRun(api, created.id)).toMatchObject({ valid: 600, invalid: 0 });
    expect(await commitAndRun(ctx, api, created.id)).toMatchObject({ status: 'committed', created: 200 });
    const sales = await api.expectStatus<Array<{ id: number; ref: number }>>(
      200,
      'GET',
      '/api/sales?salesref=167',
    );
    const across = await api.expectStatus<Sale>(200, 'GET', `/api/sales/${sales[0]?.id}`);
    expect(across.saleDetails.map((line) => line.quantity)).toEqual([1, 2, 3]);
    expect(across.total).toBe(48);
  });

  it('numbers sales without a number after the register, creates missing products when told, and refuses two sales under one number', async () => {
    const api = await asAdministrator(ctx);
    const { anne, mug } = await register();
    const before = await insertSale(
      ctx,
      buildSale(anne.id, [{ productId: mug.id, quantity: 1, euroUnitPrice: 8, swissUnitPrice: 9 }]),
    );
    const created = await uploaded(
      ctx,
      'ventes.csv',
      csv([
        'Date;Courriel;Produit;Quantité;Prix unitaire',
        '02/03/2024;anne@example.org;Affiche ancienne;3;4,50',
        '03/03/2024;anne@example.org;Tasse émaillée;1;',
      ]),
      'sales',
    );
    await api.expectStatus(200, 'PUT', `/api/imports/${created.id}/mapping`, {
      mapping: created.mapping,
      options: { ...created.options, createMissingReferences: true },
    });
    expect(await dryRun(api, created.id)).toMatchObject({ valid: 2, invalid: 0 });
    expect(await commitAndRun(ctx, api, created.id)).toMatchObject({ status: 'committed', created: 2 });
    const sales = await api.expectStatus<Array<{ ref: number; total: number }>>(200, 'GET', '/api/sales');
    expect(sales.map((sale) => [sale.ref, sale.total]).sort()).toEqual([
      [before.ref, 8],
      [before.ref + 1, 13.5],
      [before.ref + 2, 8],
    ]);
    const poster = (await catalogue(api)).find((product) => product.name === 'Affiche ancienne');
    expect(poster).toMatchObject({ euroPrice: 4.5, swissPrice: 0, active: false, currentStock: 0 });

    const split = await uploaded(
      ctx,
      'ventes.csv',
      csv([
        'ref;Date;Courriel;Produit;Quantité',
        '7;02/03/2024;anne@example.org;Tasse émaillée;1',
        '8;02/03/2024;anne@example.org;Tasse émaillée;1',
        '7;02/03/2024;anne@example.org;Tasse émaillée;1',
      ]),
      'sales',
    );
    const checked = await dryRun(api, split.id);
    expect(checked).toMatchObject({ valid: 2, invalid: 1 });
    expect(checked.rows[2]?.errors).toEqual([
      {
        field: 'ref',
        message: 'Row 1 of the file starts another sale n° 7: the lines of one sale follow one another.',
      },
    ]);
  });
});

describe('imports kept 30 days', () => {
  const DAY_MS = 86_400_000;

  it('can be undone for 30 days; then the job deletes the rows of its file and its samples, and it is expired', async () => {
    let api = await asAdministrator(ctx);
    const committed = await uploaded(
      ctx,
      'catalogue.csv',
      csv(['Name;euroPrice;swissPrice', 'Tasse émaillée;8;9']),
      'products',
    );
    await dryRun(api, committed.id);
    await commitAndRun(ctx, api, committed.id);
    const leftAside = await uploaded(
      ctx,
      'abonnes.csv',
      csv(['Prénom;Nom;Courriel', 'Zoé;Martin;zoe@example.org']),
    );

    ctx.clock.advance(29 * DAY_MS);
    api = await asAdministrator(ctx); // signed in again: the tokens expired meanwhile
    await ctx.app.jobs.runDue();
    expect(await api.expectStatus<Import>(200, 'GET', `/api/imports/${leftAside.id}`)).toMatchObject({
      status: 'uploaded',
      columns: [{ samples: ['Zoé'] }, { samples: ['Martin'] }, { samples: ['zoe@example.org'] }],
    });

    ctx.clock.advance(2 * DAY_MS);
    api = await asAdministrator(ctx);
    const refused = await api.send<{ detail: string }>('POST', `/api/imports/${committed.id}/undo`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      'The import of catalogue.csv was committed more than 30 days ago: it can no longer be undone.',
    );
    await ctx.app.jobs.runDue();
    for (const id of [committed.id, leftAside.id]) {
      const expired = await api.expectStatus<Import>(200, 'GET', `/api/imports/${id}`);
      expect(expired.status).toBe('expired');
      expect(expired.columns.every((column) => column.samples.length === 0)).toBe(true);
    }
    const rows = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from import_rows`,
    );
    expect(rows[0]?.n).toBe(0);
    // What it wrote stays.
    expect((await catalogue(api)).map((product) => product.name)).toEqual(['Tasse émaillée']);
    expect((await api.send('POST', `/api/imports/${leftAside.id}/dry-run`)).status).toBe(409);
  });

  it('forgets the rows that imported the sales of a subscriber who is anonymised, every line of them', async () => {
    const api = await asAdministrator(ctx);
    await insertSubscribers(ctx, [
      buildSubscriber({ firstName: 'Anne', lastName: 'Roux', email: 'anne@example.org' }),
      buildSubscriber({ firstName: 'Bruno', lastName: 'Perret', email: 'bruno@example.org' }),
    ]);
    await insertProduct(ctx, { name: 'Tasse émaillée', euroPrice: 8, swissPrice: 9 });
    const created = await uploaded(
      ctx,
      'ventes.csv',
      csv([
        'ref;Date;Courriel;Produit;Quantité',
        '1;02/03/2024;anne@example.org;Tasse émaillée;1',
        '1;02/03/2024;anne@example.org;Tasse émaillée;2',
        '2;02/03/2024;bruno@example.org;Tasse émaillée;1',
      ]),
      'sales',
    );
    await dryRun(api, created.id);
    await commitAndRun(ctx, api, created.id);
    const [anne] = (
      await api.expectStatus<{ models: Array<{ id: number }> }>(200, 'GET', '/api/subscribers/?name=Roux')
    ).models;
    await api.expectStatus(204, 'POST', `/api/subscribers/${anne?.id}/anonymise`, {
      reason: 'Asked by email',
    });
    const rows = await queryRows<{ row: number; cells: string[] }>(
      ctx.database.db,
      sql`select row_number as row, cells from import_rows where import_id = ${created.id} order by row_number`,
    );
    expect(rows.map((row) => [row.row, row.cells.length])).toEqual([
      [1, 0],
      [2, 0],
      [3, 5],
    ]);
  });
});
