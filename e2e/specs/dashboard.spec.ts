import type { Page } from '@playwright/test';
import { adjustStockThroughApi, createProductThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer } from '../fixtures/http.ts';
import { createReferenceItemThroughApi, seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** The home screen (part 1 §2 Dashboard, §7 Dashboard, §9 refresh every 30 s). */

function lowStockTable(page: Page) {
  return page.getByRole('table', { name: 'Low Stock Products' });
}

test('a product made low in stock shows in Low Stock Products after a refresh', async ({
  page,
  request,
  adminToken,
}) => {
  const name = uniqueName('Carnet été');
  const product = await createProductThroughApi(request, adminToken, {
    name,
    euroPrice: 4.5,
    swissPrice: 5,
    currentStock: 20,
    minStockAlert: 3,
  });

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  const table = lowStockTable(page);
  await expect(table.getByRole('columnheader', { name: 'Product' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Current Stock' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Active Subscribers' })).toBeVisible();
  await expect(page.getByLabel('Total active subscribers')).toHaveText(/^Total: \d[\d\u202f]*$/);
  await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  await adjustStockThroughApi(request, adminToken, product.id, -18, 'Inventaire');
  await page.reload();
  const row = lowStockTable(page).getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(1)).toHaveText('2');
  await screenshot(page, 'dashboard-low-stock');
});

test('the dashboard reloads its widgets every 30 seconds on its own', async ({
  page,
  request,
  adminToken,
}) => {
  const name = uniqueName('Stylo été');
  const product = await createProductThroughApi(request, adminToken, {
    name,
    currentStock: 50,
    minStockAlert: 10,
  });

  await page.clock.install();
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await expect(lowStockTable(page)).toBeVisible();
  await expect(lowStockTable(page).getByRole('row').filter({ hasText: name })).toHaveCount(0);

  await adjustStockThroughApi(request, adminToken, product.id, -49, 'Inventaire');
  await page.clock.fastForward(31_000);
  await expect(lowStockTable(page).getByRole('row').filter({ hasText: name })).toBeVisible();
});

test('Active Subscribers draws one blue bar per country from zero, with the total in French format', async ({
  page,
  request,
  adminToken,
}) => {
  // Real data: three active subscribers in a country of their own, next to what the other specs made.
  // One word (the chart wraps its labels at spaces), unique to this run.
  const country = await createReferenceItemThroughApi(
    request,
    adminToken,
    '/api/ctries',
    `Groenland${Date.now().toString(36)}`,
  );
  for (const lastName of ['Aqqaluk', 'Ivalu', 'Nuka']) {
    await seedSubscriberThroughApi(request, adminToken, {
      firstName: 'Tester',
      lastName: uniqueName(lastName),
      currencyId: 1,
      countryId: country.id,
    });
  }
  const activeCounts = async () =>
    (await (await request.get('/api/dash/subs', { headers: bearer(adminToken) })).json()) as {
      labels: string[];
      data: number[];
    };
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const before = await activeCounts();
  expect(before.data[before.labels.indexOf(country.name)]).toBe(3);

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  const chart = page.getByRole('region', { name: 'Active Subscribers' });
  const totalText = chart.getByLabel('Total active subscribers');
  await expect(totalText).toHaveText(/^Total: \d[\d\u202f]*$/);
  // The total the server counted, in French format; other tests may add subscribers meanwhile.
  const shown = Number(((await totalText.textContent()) ?? '').replace(/\D/g, ''));
  const after = await activeCounts();
  expect(shown).toBeGreaterThanOrEqual(sum(before.data));
  expect(shown).toBeLessThanOrEqual(sum(after.data));
  const bars = chart.locator('.recharts-bar-rectangle path');
  expect(await bars.count()).toBeGreaterThanOrEqual(before.labels.length);
  await expect(bars.first()).toHaveAttribute('fill', /blue|#228be6|rgb\(34, 139, 230\)/i);
  await expect(chart.getByText(country.name, { exact: true })).toBeVisible();
  await expect(chart.getByText('0', { exact: true })).toBeVisible();
  await expect(chart.locator('.recharts-legend-wrapper')).toHaveCount(0);
  await screenshot(page, 'dashboard-chart');
});

test('the dashboard reloads when the tab is shown again, and after a change made in the same tab', async ({
  page,
  request,
  adminToken,
}) => {
  const [shownAgain, changedHere] = await Promise.all(
    ['Gomme été', 'Règle été'].map((prefix) =>
      createProductThroughApi(request, adminToken, {
        name: uniqueName(prefix),
        currentStock: 50,
        minStockAlert: 10,
      }),
    ),
  );
  if (!shownAgain || !changedHere) throw new Error('The two products were not created');
  const lowStockRow = (name: string) => lowStockTable(page).getByRole('row').filter({ hasText: name });

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await expect(lowStockTable(page)).toBeVisible();
  await expect(lowStockRow(shownAgain.name)).toHaveCount(0);

  await test.step('the tab is shown again: the widgets reload at once (well within their 30 s)', async () => {
    await adjustStockThroughApi(request, adminToken, shownAgain.id, -45, 'Inventaire');
    // What the browser fires when the person comes back to the tab.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    await expect(lowStockRow(shownAgain.name)).toBeVisible();
  });

  await test.step('a change made in this tab: back on Home, the figures are fresh', async () => {
    await openFromAdminMenu(page, 'Products');
    await page
      .getByRole('row')
      .filter({ hasText: changedHere.name })
      .getByRole('button', { name: `Stock of ${changedHere.name}` })
      .click();
    await page
      .getByRole('dialog', { name: `Stock: ${changedHere.name}` })
      .getByRole('button', { name: 'Adjust stock' })
      .click();
    const form = page.getByRole('dialog', { name: `Adjust stock: ${changedHere.name}` });
    await form.getByLabel('Quantity').fill('-45');
    await form.getByLabel('Reason').fill('Casse');
    await form.getByLabel('Reason').press('Enter');
    await expectSuccessToast(page, `Stock of '${changedHere.name}' adjusted by −45: 5 item(s) in stock.`);
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(lowStockRow(changedHere.name)).toBeVisible();
    await expect(lowStockRow(changedHere.name).getByRole('cell').nth(1)).toHaveText('5');
  });
});
