/**
 * Imports (not in the spec): an Administrator uploads a CSV of subscribers written the French way
 * (`;` separators, French headers), checks it without writing (an invalid email is shown on its row;
 * a row with the email of an existing subscriber is a duplicate, merged here), imports it, finds the
 * new subscriber, then undoes the import, which takes both changes back. Then products, and sales of
 * them to a subscriber of the register, come in the same way.
 */
import { expectNoAxeViolations } from '../fixtures/accessibility.ts';
import { euroThroughApi, listProductsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { searchSalesThroughApi } from '../fixtures/sales.ts';
import {
  getSubscriberThroughApi,
  searchSubscribersThroughApi,
  seedSubscriberThroughApi,
} from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** Letters only, so that the stamp reads and searches like a name. */
function stamp(): string {
  return uniqueName('')
    .trim()
    .replace(/[^a-z]/gi, '')
    .slice(-6)
    .toLowerCase()
    .replace(/^./, (letter) => letter.toUpperCase());
}

test('an Administrator imports subscribers from a CSV, merges a duplicate, then undoes the import', async ({
  page,
  request,
  adminToken,
}) => {
  test.setTimeout(180_000);
  const key = stamp();
  const newName = `Nouvelle${key}`;
  const existingName = `Existante${key}`;
  const existingEmail = `claire.${key.toLowerCase()}@example.org`;
  const fileName = `membres-${key.toLowerCase()}.csv`;

  const euro = await euroThroughApi(request, adminToken);
  const existing = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Claire',
    lastName: existingName,
    email: existingEmail,
    town: 'Annecy',
    postcode: '74000',
    currencyId: euro.id,
  });

  const csv = [
    'Prénom;Nom;Courriel;Ville;Code postal;Pays',
    `Amélie;${newName};amelie.${key.toLowerCase()}@example.org;Lyon;69001;France`,
    `Bruno;Invalide${key};pas-un-courriel;Genève;1201;Suisse`,
    `Claire;${existingName};${existingEmail};Chambéry;73000;France`,
  ].join('\r\n');

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Imports');
  await expect(page.getByRole('heading', { name: 'New import' })).toBeVisible();

  await test.step('upload: the mapping is guessed from the French headers', async () => {
    await page
      .getByLabel('File to import')
      .setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByRole('heading', { name: fileName })).toBeVisible();
    const columns = page.getByRole('table', { name: 'Columns of the file' });
    await expect(columns.getByRole('row').filter({ hasText: 'Courriel' })).toContainText(existingEmail);
    for (const [field, column] of [
      ['First name', 'Prénom (Amélie)'],
      ['Last name', `Nom (${newName})`],
      ['Email', 'Courriel (amelie.'],
      ['Town', 'Ville (Lyon)'],
      ['Postcode', 'Code postal (69001)'],
      ['Country', 'Pays (France)'],
    ] as const) {
      await expect(
        page.getByRole('combobox', { name: field, exact: true }).locator('option:checked'),
      ).toContainText(column);
    }
    await expect(
      page.getByRole('combobox', { name: 'Phone', exact: true }).locator('option:checked'),
    ).toHaveText('— not imported —');
    await page.getByRole('combobox', { name: 'Default currency' }).selectOption({ label: euro.name });
    await screenshot(page, 'imports-mapping');
    await expectNoAxeViolations(page);
  });

  const checked = page.getByRole('table', { name: 'Checked rows' });

  await test.step('check: the invalid email is shown on its row, the duplicate is merged', async () => {
    await page.getByRole('button', { name: 'Check' }).click();
    await expect(checked).toBeVisible();
    const totals = page.getByRole('list', { name: 'Totals of the check' });
    await expect(totals.getByRole('listitem').filter({ hasText: /^Valid/ })).toContainText('1');
    await expect(totals.getByRole('listitem').filter({ hasText: /^Invalid/ })).toContainText('1');
    await expect(totals.getByRole('listitem').filter({ hasText: 'Duplicates' })).toContainText('1');

    const invalidRow = checked.getByRole('row').filter({ hasText: `Invalide${key}` });
    await expect(invalidRow).toContainText('Invalid');
    await expect(invalidRow.getByRole('cell').filter({ hasText: 'pas-un-courriel' })).toContainText(
      /Error:\s*\S/,
    );

    const duplicateRow = checked.getByRole('row').filter({ hasText: existingName });
    await expect(duplicateRow).toContainText('Duplicate');
    const match = duplicateRow.getByRole('link', { name: `Subscriber no. ${existing.id}` });
    await expect(match).toHaveAttribute('href', `#/subscriber/${existing.id}`);
    await expect(match).toHaveAttribute('target', '_blank');
    const decision = duplicateRow.getByRole('radiogroup', { name: /what to do/ });
    await expect(decision.getByRole('radio', { name: 'Skip' })).toBeChecked();
    await decision.getByText('Merge', { exact: true }).click();
    await expect(decision.getByRole('radio', { name: 'Merge' })).toBeChecked();

    const show = page.getByRole('radiogroup', { name: 'Show rows' });
    await show.getByText('Invalid', { exact: true }).click();
    await expect(checked.getByRole('row')).toHaveCount(2);
    await show.getByText('All', { exact: true }).click();
    await expect(checked.getByRole('row')).toHaveCount(4);
    await expect(
      checked.getByRole('row').filter({ hasText: existingName }).getByRole('radio', { name: 'Merge' }),
    ).toBeChecked();
    await screenshot(page, 'imports-dry-run');
    await expectNoAxeViolations(page);

    // At 375 px the tables scroll sideways inside the page, which itself does not.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(checked).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('heading', { name: 'Check results' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'imports-dry-run-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('import: the job creates one subscriber and merges the other', async () => {
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    const done = page.getByRole('alert').filter({ hasText: 'Imported' });
    await expect(done).toContainText(/1 created, 1 merged, \d+ skipped/, { timeout: 30_000 });
    const history = page.getByRole('table', { name: 'Past imports' });
    const row = history.getByRole('row').filter({ hasText: fileName });
    await expect(row).toContainText('Imported');
    await expect(row).toContainText('Subscribers');
    await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await screenshot(page, 'imports-done');
    await expectNoAxeViolations(page);

    const merged = await getSubscriberThroughApi(request, adminToken, existing.id);
    expect(merged.town).toBe('Chambéry');
    const found = await searchSubscribersThroughApi(request, adminToken, { name: newName });
    expect(found.models).toHaveLength(1);
    const created = found.models[0];
    if (!created) throw new Error(`No subscriber ${newName} after the import`);
    await page.goto(`/#/subscriber/${created.id}`);
    await expect(page.getByRole('heading', { name: new RegExp(`Amélie ${newName}`) })).toBeVisible();
  });

  await test.step('at 375 px wide the screen does not scroll sideways', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/#/imports');
    await expect(page.getByRole('heading', { name: 'Imports', exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Past imports' }).getByText(fileName)).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await screenshot(page, 'imports-375');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('undo: the new subscriber is removed and the merged one gets its values back', async () => {
    const row = page
      .getByRole('table', { name: 'Past imports' })
      .getByRole('row')
      .filter({ hasText: fileName });
    await row.getByRole('button', { name: `Undo ${fileName}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Undo this import?' });
    await expect(dialog).toContainText('1 subscriber created (removed), 1 subscriber merged');
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await dialog.getByRole('button', { name: 'Undo import' }).click();
    await expectSuccessToast(page, `The import of '${fileName}' was undone.`);
    await expect(row).toContainText('Undone');
    await expect(row.getByRole('button', { name: `Undo ${fileName}` })).toHaveCount(0);

    const merged = await getSubscriberThroughApi(request, adminToken, existing.id);
    expect(merged.town).toBe('Annecy');
    const found = await searchSubscribersThroughApi(request, adminToken, { name: newName });
    expect(found.models).toHaveLength(0);
  });
});

test('an Administrator imports products, then sales of them, and the sale lands on the buyer', async ({
  page,
  request,
  adminToken,
}) => {
  test.setTimeout(180_000);
  const key = stamp();
  const product = `Tasse ${key}`;
  const email = `bruno.${key.toLowerCase()}@example.org`;
  const euro = await euroThroughApi(request, adminToken);
  const buyer = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Bruno',
    lastName: `Acheteur${key}`,
    email,
    currencyId: euro.id,
  });

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Imports');

  /** Uploads `lines` as a CSV of `kind`, checks it, imports it and waits for the outcome. */
  async function importCsv(kind: string, name: string, lines: string[], expected: RegExp) {
    await page.goto('/#/imports');
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: kind, exact: true }).click();
    await page
      .getByLabel('File to import')
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n'), 'utf8') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await page.getByRole('button', { name: 'Check' }).click();
    await expect(page.getByRole('table', { name: 'Checked rows' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: /^Import \d+ rows?$/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Imported' })).toContainText(expected, {
      timeout: 30_000,
    });
  }

  await test.step('products: the stock comes in as an import movement', async () => {
    await importCsv(
      'Products',
      `catalogue-${key}.csv`,
      ['Désignation;Prix (€);Prix (CHF);Stock', `${product};8,50;9;12`],
      /1 created/,
    );
    const found = (await listProductsThroughApi(request, adminToken)).find((item) => item.name === product);
    expect(found).toMatchObject({ euroPrice: 8.5, swissPrice: 9, currentStock: 12 });
  });

  await test.step('sales: without a sale number each row is a sale; the buyer found by email, the totals checked', async () => {
    const name = `ventes-${key}.csv`;
    await importCsv(
      'Sales',
      name,
      [
        'N° de facture;Date;Courriel;Produit;Quantité;Total',
        `;02/03/2025;${email};${product};2;17`,
        `;02/03/2025;${email};${product};1;8,50`,
      ],
      /2 created/,
    );
    const sales = await searchSalesThroughApi(request, adminToken, { id: buyer.id });
    expect(sales.map((sale) => sale.total).sort()).toEqual([17, 8.5].sort());
    await screenshot(page, 'imports-sales-done');
    const row = page.getByRole('table', { name: 'Past imports' }).getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Sales');
    await row.getByRole('button', { name: `Undo ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Undo this import?' });
    await expect(dialog).toContainText('2 sales created (removed).');
    await dialog.getByRole('button', { name: 'Undo import' }).click();
    await expectSuccessToast(page, `The import of '${name}' was undone.`);
    expect(await searchSalesThroughApi(request, adminToken, { id: buyer.id })).toHaveLength(0);
  });
});
