import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from '../fixtures/accessibility.ts';
import {
  adjustStockThroughApi,
  createProductThroughApi,
  listProductsThroughApi,
  listStockMovementsThroughApi,
  uniqueName,
} from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  expectErrorToast,
  expectSuccessToast,
  openFromAdminMenu,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/**
 * Stock (docs/security.md: stock): the movements of a product and an adjustment with a reason on the
 * Products screen; the stock of each line on New Sale, a line over it blocked, and the server's
 * insufficient-stock answer shown when someone took the items meanwhile.
 */

function productRow(page: Page, name: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

async function addLine(page: Page, product: string, quantity: number) {
  await page.getByRole('combobox', { name: 'Product' }).click();
  await page.getByRole('option', { name: product, exact: true }).click();
  const quantityField = page.getByRole('textbox', { name: 'Quantity', exact: true });
  await quantityField.fill(String(quantity));
  await page.getByRole('button', { name: 'Add Line' }).click();
  await expect(quantityField).toHaveValue('0');
}

test('the product screen lists the stock movements and adjusts the stock with a reason', async ({
  page,
  request,
  adminToken,
}) => {
  const name = uniqueName('Agenda stock');
  const product = await createProductThroughApi(request, adminToken, {
    name,
    euroPrice: 12.5,
    swissPrice: 14,
    currentStock: 10,
  });
  const buyer = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Zoé',
    lastName: uniqueName('Stock'),
    currencyId: 1,
  });
  const sale = await request.post('/api/sales', {
    headers: bearer(adminToken),
    data: {
      subscriberId: buyer.id,
      fullName: `Zoé ${buyer.lastName}`,
      items: [{ productId: product.id, quantity: 3, euroUnitPrice: 12.5, swissUnitPrice: 14 }],
    },
  });
  await expectOk(sale, 'POST /api/sales');
  const saleId = ((await sale.json()) as { id: number }).id;

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Products');
  await expect(productRow(page, name)).toContainText('7 item(s) in stock');

  await test.step('the Stock dialog lists the movements, newest first, with who', async () => {
    await productRow(page, name)
      .getByRole('button', { name: `Stock of ${name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Stock: ${name}` });
    await expect(dialog.getByText('7 item(s) in stock')).toBeVisible();
    const rows = dialog.getByRole('table', { name: 'Stock movements' }).getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText(`Sale #${saleId}`);
    await expect(rows.nth(1)).toContainText('−3');
    await expect(rows.nth(1)).toContainText('Administrator');
    await expect(rows.nth(2)).toContainText('Adjustment');
    await expect(rows.nth(2)).toContainText('+10');
    await expect(rows.nth(2)).toContainText('Stock initial');
    await expectNoAxeViolations(page);
    await screenshot(page, 'stock-movements');
  });

  await test.step('an adjustment with a reason, by keyboard', async () => {
    const dialog = page.getByRole('dialog', { name: `Stock: ${name}` });
    await dialog.getByRole('button', { name: 'Adjust stock' }).click();
    const form = page.getByRole('dialog', { name: `Adjust stock: ${name}` });
    await form.getByRole('button', { name: 'Adjust stock' }).click();
    await expect(form.getByText('The reason is required.')).toBeVisible();
    await form.getByLabel('Quantity').fill('-20');
    await form.getByLabel('Reason').fill('Casse');
    await expect(form.getByText('Stock after: -13 item(s)')).toBeVisible();
    await form.getByRole('button', { name: 'Adjust stock' }).click();
    await expect(form.getByText(`Only 7 of "${name}" in stock (20 asked).`, { exact: true })).toBeVisible();

    await form.getByLabel('Quantity').fill('25');
    await form.getByLabel('Reason').fill('Livraison imprimeur');
    await expect(form.getByText('Stock after: 32 item(s)')).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, 'stock-adjust');
    await form.getByLabel('Reason').press('Enter');
    await expectSuccessToast(page, `Stock of '${name}' adjusted by +25: 32 item(s) in stock.`);

    const list = page.getByRole('dialog', { name: `Stock: ${name}` });
    await expect(list.getByText('32 item(s) in stock')).toBeVisible();
    const first = list.getByRole('table', { name: 'Stock movements' }).getByRole('row').nth(1);
    await expect(first).toContainText('+25');
    await expect(first).toContainText('Livraison imprimeur');
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(productRow(page, name)).toContainText('32 item(s) in stock');
  });

  const movements = await listStockMovementsThroughApi(request, adminToken, product.id);
  expect(movements.count).toBe(3);
  expect(movements.models[0]).toMatchObject({
    kind: 'adjustment',
    quantity: 25,
    stockAfter: 32,
    reason: 'Livraison imprimeur',
    userName: 'Administrator',
  });

  await test.step('at 375 px wide', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await productRow(page, name)
      .getByRole('button', { name: `Stock of ${name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Stock: ${name}` });
    await expect(dialog.getByRole('button', { name: 'Adjust stock' })).toBeInViewport();
    await screenshot(page, 'stock-movements-375');
  });
});

test('New Sale shows the stock per line, blocks a line over it and says when it ran out meanwhile', async ({
  page,
  request,
  adminToken,
}) => {
  const name = uniqueName('Carnet stock');
  const product = await createProductThroughApi(request, adminToken, {
    name,
    euroPrice: 4.5,
    swissPrice: 5,
    currentStock: 3,
  });
  const buyer = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Anne',
    lastName: uniqueName('Vente'),
    currencyId: 1,
  });

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto(`/#/newsale/${buyer.id}`);
  await expect(page.getByRole('heading', { name: `New Sale for Anne ${buyer.lastName}` })).toBeVisible();
  const lines = page.getByRole('table', { name: 'Sale lines' });

  await test.step('2, then 2 more of the same product, over a stock of 3: one line flagged, Save refused', async () => {
    await addLine(page, name, 2);
    await expect(lines.getByRole('row').nth(1)).toContainText('3');
    await expect(lines.getByText('Only 3 in stock.')).toHaveCount(0);
    // The same product again adds to its line's quantity (one line of 4).
    await addLine(page, name, 2);
    await expect(lines.getByRole('button', { name: `Remove ${name}` })).toHaveCount(1);
    await expect(lines.getByText('Only 3 in stock.')).toHaveCount(1);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(lines.getByText('More than in stock.')).toHaveCount(1);
    await expectNoAxeViolations(page);
    await screenshot(page, 'new-sale-over-stock');
    await lines.getByRole('button', { name: `Remove ${name}` }).click();
    await addLine(page, name, 2);
    await expect(lines.getByText('Only 3 in stock.')).toHaveCount(0);
  });

  await test.step('someone takes the items meanwhile: the 409 is shown on the line and in a toast', async () => {
    await adjustStockThroughApi(request, adminToken, product.id, -2, 'Casse');
    await page.getByRole('button', { name: 'Save' }).click();
    const message = `Only 1 of "${name}" in stock (2 asked).`;
    await expectErrorToast(page, message);
    await expect(lines.getByText(message)).toBeVisible();
    // The stock was reloaded: the line now shows 1 and is flagged.
    await expect(lines.getByText('Only 1 in stock.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`#/newsale/${buyer.id}$`));
    await screenshot(page, 'new-sale-stock-409');
  });

  const [after] = (await listProductsThroughApi(request, adminToken)).filter(
    (item) => item.id === product.id,
  );
  expect(after?.currentStock).toBe(1);
});
