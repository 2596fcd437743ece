/**
 * Exchange rates (not in the spec; docs/decisions/021): an Administrator adds a rate typed the French
 * way (dd/mm/yyyy, decimal comma), is refused another rate for the same day and currency, adds one
 * more with the keyboard alone, imports a few days of the ECB's eurofxref-hist.csv (a rate already
 * stored is skipped), filters the list by currency and days, and finds the screen usable at 375 px.
 */
import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations, PHONE } from '../fixtures/accessibility.ts';
import { ADMIN } from '../fixtures/env.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/**
 * Three days of the ECB's file as it comes: newest first, a comma at the end of each line, `N/A` where
 * no rate was published. CHF on 2024-03-04 is the rate the spec types in first, so it is skipped.
 */
const ECB_FILE = [
  'Date,USD,JPY,BGN,CYP,CHF,ISK,',
  '2024-03-05,1.0857,162.93,1.9558,N/A,0.9600,149.30,',
  '2024-03-04,1.0845,162.75,1.9558,N/A,0.9585,N/A,',
  '2024-03-01,1.0833,162.38,1.9558,N/A,0.9558,148.70,',
  '',
].join('\n');

const addForm = (page: Page) => page.getByRole('form', { name: 'Add a rate' });
const searchForm = (page: Page) => page.getByRole('search', { name: 'Search exchange rates' });
const ratesTable = (page: Page) => page.getByRole('table', { name: 'Exchange rates' });

/** Types a day as French staff do (dd/mm/yyyy) into the date field labelled `label` of `scope`. */
async function typeDate(scope: Locator, label: string, frenchDay: string) {
  const field = scope.getByRole('textbox', { name: label, exact: true });
  await field.fill(frenchDay);
  await field.press('Tab');
  await expect(field).toHaveValue(frenchDay);
}

/** Waits until the toasts of the saves have closed on their own (5 s), so that axe scans the screen alone. */
async function toastsGone(page: Page) {
  await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
}

/** The text of each row of the rates table, spaces of every kind as plain spaces. */
async function tableRows(page: Page) {
  const rows = await ratesTable(page).locator('tbody tr').allTextContents();
  return rows.map((row) => row.replace(/\s+/g, ' ').trim());
}

test('an Administrator adds rates, imports the ECB file and filters the rates', async ({ page }) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Exchange rates');
  await expect(page.getByRole('heading', { name: 'Add a rate' })).toBeVisible();

  await test.step('a rate typed the French way', async () => {
    const form = addForm(page);
    await typeDate(form, 'Date', '04/03/2024');
    await form.getByRole('textbox', { name: 'Currency' }).fill('chf');
    await expect(form.getByRole('textbox', { name: 'Currency' })).toHaveValue('CHF');
    await form.getByRole('textbox', { name: 'Rate for 1 €' }).fill('0,9585');
    await form.getByRole('button', { name: 'Save rate' }).click();
    await expectSuccessToast(page, '1 EUR = 0,9585 CHF on 04/03/2024 is saved.');
    await expect(page.getByText('1 rate', { exact: true })).toBeVisible();
    await expect.poll(() => tableRows(page)).toEqual(['04/03/2024CHF0,9585']);
  });

  await test.step('another rate for the same day and currency is refused, naming the stored one', async () => {
    const form = addForm(page);
    await form.getByRole('textbox', { name: 'Currency' }).fill('CHF');
    await form.getByRole('textbox', { name: 'Rate for 1 €' }).fill('0,97');
    await form.getByRole('button', { name: 'Save rate' }).click();
    const refused = form.getByText(/is already stored: 0\.9585 CHF for 1 euro/).first();
    await expect(refused).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Rate for 1 €' })).toBeFocused();
    await expect(page.getByText('1 rate', { exact: true })).toBeVisible();
  });

  await test.step('a rate added with the keyboard alone', async () => {
    const form = addForm(page);
    const currency = form.getByRole('textbox', { name: 'Currency' });
    await currency.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('gbp');
    await page.keyboard.press('Tab');
    await expect(form.getByRole('textbox', { name: 'Rate for 1 €' })).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('0,85553');
    await page.keyboard.press('Enter');
    await expectSuccessToast(page, '1 EUR = 0,85553 GBP on 04/03/2024 is saved.');
    await expect(page.getByText('2 rates', { exact: true })).toBeVisible();
    // The fields keep what was typed, for the next currency of that day.
    await expect(form.getByRole('textbox', { name: 'Currency' })).toHaveValue('GBP');
  });

  await test.step('the ECB file: N/A cells left out, the rate already stored skipped', async () => {
    const form = page.getByRole('form', { name: 'Import the ECB file' });
    await form
      .getByLabel('ECB rates file')
      .setInputFiles({ name: 'eurofxref-hist.csv', mimeType: 'text/csv', buffer: Buffer.from(ECB_FILE) });
    await form.getByRole('button', { name: 'Import' }).click();
    // 3 days × 5 currencies with a rate, less ISK's N/A = 14; CHF on 04/03/2024 was stored already.
    // What the import did shows below the form.
    await expect(page.getByRole('status').filter({ hasText: 'rates imported' })).toContainText(
      '13 rates imported, 1 skipped.',
    );
    await expect(page.getByText('15 rates', { exact: true })).toBeVisible();
    await expect
      .poll(async () => (await tableRows(page)).slice(0, 5))
      .toEqual([
        '05/03/2024BGN1,9558',
        '05/03/2024CHF0,96',
        '05/03/2024ISK149,3',
        '05/03/2024JPY162,93',
        '05/03/2024USD1,0857',
      ]);
    await screenshot(page, 'exchange-rates');
    await toastsGone(page);
    await expectNoAxeViolations(page);
  });

  await test.step('filtered by currency and days', async () => {
    const search = searchForm(page);
    await search.getByRole('textbox', { name: 'Currency' }).fill('usd');
    await typeDate(search, 'From', '01/03/2024');
    await typeDate(search, 'To', '04/03/2024');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('2 rates', { exact: true })).toBeVisible();
    await expect.poll(() => tableRows(page)).toEqual(['04/03/2024USD1,0845', '01/03/2024USD1,0833']);
    await screenshot(page, 'exchange-rates-filtered');
  });

  await test.step('at 375 px wide', async () => {
    await page.setViewportSize(PHONE);
    await expect(page.getByRole('heading', { name: 'Exchange rates', level: 1 })).toBeVisible();
    await expect(ratesTable(page)).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    // The table fits: its last column ends inside the screen, without scrolling sideways.
    const rateHeader = ratesTable(page).getByRole('columnheader', { name: 'Rate for 1 €' });
    await rateHeader.scrollIntoViewIfNeeded();
    const box = await rateHeader.boundingBox();
    expect((box?.x ?? Number.POSITIVE_INFINITY) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    await expect(addForm(page).getByRole('button', { name: 'Save rate' })).toBeVisible();
    await screenshot(page, 'exchange-rates-375');
    await expectNoAxeViolations(page);
  });
});
