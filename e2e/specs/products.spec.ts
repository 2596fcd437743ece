import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { createProductThroughApi, listProductsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { orgToday } from '../fixtures/dates.ts';
import { ADMIN } from '../fixtures/env.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  expectSuccessToast,
  keepDownload,
  openFromAdminMenu,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/** The product catalogue (part 1 §2 Products, §4 Modal and Row delete, §5, §7 Products, §8). */

function productRow(page: Page, name: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

/** Types into a currency input key by key, as a person would (the field selects its amount on focus). */
async function typeAmount(field: Locator, text: string) {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.pressSequentially(text, { delay: 50 });
}

test('a member of staff adds, edits and removes a product', async ({ page, request, adminToken }) => {
  const name = uniqueName('Agenda été');
  const renamed = `${name} (2)`;

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Products');
  await expect(page.getByRole('button', { name: 'Export Products' })).toBeVisible();

  await test.step('add with French-typed prices and a stock below its minimum', async () => {
    await page.getByRole('button', { name: 'Add New Product' }).click();
    const modal = page.getByRole('dialog', { name: 'Add New Product' });
    await expect(modal.getByLabel('Euros Price')).toHaveValue('€ 0,00');
    await expect(modal.getByLabel('Swiss Price')).toHaveValue('CHF 0,00');
    await expect(modal.getByText('(Yes - product is active)')).toBeVisible();
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText('Please complete all the information!')).toBeVisible();
    await expect(modal.getByText('Name is required')).toBeVisible();

    await modal.getByLabel('Name').fill(name);
    await typeAmount(modal.getByLabel('Euros Price'), '1.234,50');
    await typeAmount(modal.getByLabel('Swiss Price'), '1.300,00');
    await modal.getByLabel('Current Stock').fill('2');
    await modal.getByLabel('Minimum Stock Level').fill('5');
    await expect(modal.getByLabel('Euros Price')).toHaveValue('€ 1.234,50');
    await expect(modal.getByLabel('Swiss Price')).toHaveValue('CHF 1.300,00');
    await expect(modal.getByText('Please complete all the information!')).toBeHidden();
    await screenshot(page, 'products-add-modal');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, `Product '${name}' was created successfully!`);
    await expect(modal).toBeHidden();

    const row = productRow(page, name);
    await expect(row).toContainText('2 item(s) in stock');
    await expect(row).toContainText(/1\s234,50 € · 1\s300,00 CHF/);
    const saved = (await listProductsThroughApi(request, adminToken)).find(
      (product) => product.name === name,
    );
    expect(saved).toMatchObject({ euroPrice: 1234.5, swissPrice: 1300, currentStock: 2, minStockAlert: 5 });
    await screenshot(page, 'products-list');
  });

  await test.step('edit in the Edit Product dialog', async () => {
    await productRow(page, name).getByRole('button', { name: 'Edit' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Product' });
    await expect(modal.getByLabel('Name')).toHaveValue(name);
    await expect(modal.getByLabel('Euros Price')).toHaveValue('€ 1.234,50');
    await modal.getByLabel('Name').fill(renamed);
    // The stock is not edited here: it moves through the Stock dialog (stock.spec.ts).
    await expect(modal.getByLabel('Current Stock')).toHaveCount(0);
    await modal.getByRole('switch', { name: /Active\?/ }).uncheck();
    await expect(modal.getByText('(No - product is NOT active)')).toBeVisible();
    await screenshot(page, 'products-edit-modal');
    await modal.getByRole('button', { name: 'Update' }).click();
    await expectSuccessToast(page, `Product '${renamed}' was updated successfully!`);
    await expect(modal).toBeHidden();
    await expect(productRow(page, renamed)).toContainText('2 item(s) in stock');
    await expect(productRow(page, renamed)).toContainText('Inactive');
  });

  await test.step('the dialog closes on Escape and on its close icon without saving', async () => {
    await productRow(page, renamed).getByRole('button', { name: 'Edit' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Product' });
    await modal.getByLabel('Name').fill('Not saved');
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await page.getByRole('button', { name: 'Add New Product' }).click();
    const addModal = page.getByRole('dialog', { name: 'Add New Product' });
    await addModal.getByRole('button', { name: 'Close' }).click();
    await expect(addModal).toBeHidden();
    await expect(productRow(page, renamed)).toBeVisible();
  });

  await test.step('remove with the two-step confirmation', async () => {
    const row = productRow(page, renamed);
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('button', { name: 'Remove' }).click();
    await screenshot(page, 'products-confirm-delete');
    await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
    await expectSuccessToast(page, `Product '${renamed}' was deleted successfully!`);
    await expect(productRow(page, renamed)).toHaveCount(0);
    const left = await listProductsThroughApi(request, adminToken);
    expect(left.map((product) => product.name)).not.toContain(renamed);
  });
});

/** Creates a product (CHF 14, 8 in stock, alert at 2), signs in and opens Products with its row shown. */
async function openProductsShowing(
  page: Page,
  request: APIRequestContext,
  adminToken: string,
  product: { name: string; euroPrice: number },
) {
  await createProductThroughApi(request, adminToken, {
    ...product,
    swissPrice: 14,
    currentStock: 8,
    minStockAlert: 2,
  });
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Products');
  await expect(productRow(page, product.name)).toBeVisible();
}

test('Export Products downloads the CSV named by the server, accents intact', async ({
  page,
  request,
  adminToken,
}) => {
  const name = uniqueName('Agenda été');
  await openProductsShowing(page, request, adminToken, { name, euroPrice: 12.5 });

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Products' }).click();
  const download = await downloading;
  const today = orgToday();
  expect(download.suggestedFilename()).toMatch(/^products-export-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(download.suggestedFilename()).toBe(`products-export-${today}.csv`);

  const raw = (await keepDownload(download)).toString('utf8');
  expect(raw.charCodeAt(0)).toBe(0xfeff);
  const text = raw.replace(/^\uFEFF/, '');
  const [header, ...lines] = text.trim().split(/\r?\n/);
  expect(header).toBe('id,name,euroPrice,swissPrice,active,currentStock,minStockAlert');
  expect(lines.some((line) => line.includes(name))).toBe(true);
  expect(text).toContain('Agenda été');
});

test('Export Products in the Excel-FR dialect: semicolons, decimal comma, remembered after a reload', async ({
  page,
  request,
  adminToken,
}) => {
  const name = uniqueName('Carnet; été');
  await openProductsShowing(page, request, adminToken, { name, euroPrice: 1.5 });

  const exportText = async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Products' }).click();
    const raw = (await keepDownload(await downloading)).toString('utf8');
    expect(raw.charCodeAt(0)).toBe(0xfeff);
    return raw.replace(/^\uFEFF/, '');
  };

  await page.getByRole('button', { name: 'CSV format' }).click();
  const excel = page.getByRole('menuitem', { name: /Excel \(France\)/ });
  await expect(page.getByRole('menuitem', { name: /Standard CSV/ })).toHaveAttribute('aria-current', 'true');
  await excel.click();
  await expect(excel).toHaveAttribute('aria-current', 'true');
  await screenshot(page, 'products-csv-format-menu', { fullPage: false });
  await page.keyboard.press('Escape');

  const french = await exportText();
  expect(french.split('\n')[0]).toBe('id;name;euroPrice;swissPrice;active;currentStock;minStockAlert');
  expect(french).toMatch(new RegExp(`;"${name}";1,5;14;true;8;2\n`));

  // The choice is this user's, kept in the browser: still Excel-FR after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Export Products' })).toBeVisible();
  expect((await exportText()).split('\n')[0]).toContain('id;name;');

  await page.getByRole('button', { name: 'CSV format' }).click();
  await page.getByRole('menuitem', { name: /Standard CSV/ }).click();
  await page.keyboard.press('Escape');
  expect((await exportText()).split('\n')[0]).toBe(
    'id,name,euroPrice,swissPrice,active,currentStock,minStockAlert',
  );
});
