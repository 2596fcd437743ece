/**
 * Invoice payments and bank statements (not in the spec; docs/decisions/031-033): with two euro sales
 * whose invoices were issued through the API, an administrator imports a camt.053 statement with a
 * credit quoting the first invoice's RF reference (matched: partially paid) and a credit no reference
 * matches (to review), pays the first invoice with that one from the review queue (paid), records a
 * manual payment of the second sale on the Sales screen, and finds the Overdue invoices card on the
 * dashboard. The screens pass axe, fit 375 px and work with the keyboard.
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expectFitsPhone, expectNoAxeViolations, PHONE } from '../fixtures/accessibility.ts';
import { camt053Statement, issuedEuroSaleThroughApi } from '../fixtures/bank-statements.ts';
import { ADMIN } from '../fixtures/env.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

const DESKTOP = { width: 1280, height: 900 } as const;

/** Today in the organisation's time zone (the config sets TZ), `YYYY-MM-DD`, and the French `dd/mm/yyyy`. */
const TODAY = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(
  new Date(),
);
const TODAY_FRENCH = TODAY.split('-').reverse().join('/');

/** At 375 px once the transitions are over: kept as phone-<name>.png, no sideways scroll; back to desktop. */
async function checkAtPhoneWidth(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  await expectFitsPhone(page, name);
  await page.setViewportSize(DESKTOP);
}

/** The row of the Sales table of the sale `ref`, searched by its reference. */
async function saleRow(page: Page, ref: number): Promise<Locator> {
  await page.goto('/#/sales');
  const field = page.getByLabel('Sales Reference');
  await field.fill(String(ref));
  await field.press('Enter');
  const table = page.getByRole('table', { name: 'Sales' });
  return table.getByRole('row').filter({ has: page.getByText(`#${ref}`, { exact: true }) });
}

test('a statement pays an invoice by its reference, the review queue pays another, and a payment is typed by hand', async ({
  page,
  request,
  adminToken,
}) => {
  // Specs share one database: amounts, names and bank references of this run only.
  const run = randomUUID().slice(0, 8).toUpperCase();
  const letters = run.replace(/\d/g, (digit) => String.fromCharCode(65 + Number(digit)));
  const first = await issuedEuroSaleThroughApi(request, adminToken, { unitPrice: 17.35, quantity: 2 });
  const second = await issuedEuroSaleThroughApi(request, adminToken, { unitPrice: 11.15, quantity: 3 });
  expect(first.paymentReference).toMatch(/^RF\d{2}/);
  const unknownDebtor = `Donateur ${letters}`;

  await page.setViewportSize(DESKTOP);
  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('the dashboard has the Overdue invoices card, linking to the overdue sales', async () => {
    const card = page.getByRole('region', { name: 'Overdue invoices' });
    await expect(card.getByLabel('Number of overdue invoices')).toHaveText(/^\d[\d\u202f]*$/);
    await expect(card.getByRole('link', { name: 'See the overdue invoices' })).toHaveAttribute(
      'href',
      '#/sales?paymentStatus=overdue',
    );
  });

  await openFromAdminMenu(page, 'Bank statements');

  await test.step('import a camt.053 statement: one credit matched by its RF reference, one to review', async () => {
    const form = page.getByRole('form', { name: 'Import a statement' });
    await form.getByLabel('Bank statement file').setInputFiles({
      name: `camt053-${run}.xml`,
      mimeType: 'application/xml',
      buffer: Buffer.from(
        camt053Statement(`STMT-${run}`, TODAY, [
          {
            bankRef: `E2E-${run}-1`,
            amount: '20.00',
            debtorName: `Basile ${first.lastName}`,
            reference: { type: 'SCOR', value: first.paymentReference },
            text: 'Merci',
            bookingDate: TODAY,
          },
          {
            bankRef: `E2E-${run}-2`,
            amount: '14.70',
            debtorName: unknownDebtor,
            text: `Virement ${letters}`,
            bookingDate: TODAY,
          },
        ]),
      ),
    });
    await form.getByRole('button', { name: 'Import' }).click();
    const result = page.getByRole('status').filter({ hasText: 'Import done' });
    await expect(result.getByTestId('import-entries')).toHaveText('2');
    await expect(result.getByTestId('import-matched')).toHaveText('1');
    await expect(result.getByTestId('import-unmatched')).toHaveText('1');
    await expect(result.getByTestId('import-duplicates')).toHaveText('0');
    await expect(result.getByTestId('import-listed')).toHaveText('0');
    await expectSuccessToast(page, 'The statement was imported');
  });

  const queue = page.getByRole('table', { name: 'To review' });
  const entry = queue.getByRole('row').filter({ hasText: unknownDebtor });

  await test.step('the review queue lists the unknown credit the French way', async () => {
    await expect(entry).toContainText(TODAY_FRENCH);
    await expect(entry).toContainText(/14,70\sEUR/);
    await expect(entry).toContainText(`Virement ${letters}`);
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await expectNoAxeViolations(page);
    await screenshot(page, 'bank-statements-queue');
    await checkAtPhoneWidth(page, 'bank-statements-queue');
  });

  await test.step('pay the first invoice with it, with the keyboard', async () => {
    await entry.getByRole('button', { name: 'Pay an invoice' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Pay an invoice' });
    const field = dialog.getByRole('textbox', { name: /Sale reference/ });
    await expect(field).toBeFocused();
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await page.keyboard.type(String(first.ref));
    await page.keyboard.press('Enter');
    await expectSuccessToast(page, `was recorded as a payment of the sale #${first.ref}`);
    await expect(dialog).toHaveCount(0);
    await expect(entry).toHaveCount(0);
    await page.getByRole('tab', { name: 'Assigned' }).click();
    const assigned = page
      .getByRole('table', { name: 'Assigned' })
      .getByRole('row')
      .filter({ hasText: unknownDebtor });
    await expect(assigned).toContainText(`Payment of the sale #${first.ref}`);
    await page.getByRole('tab', { name: 'Matched' }).click();
    await expect(
      page
        .getByRole('table', { name: 'Matched' })
        .getByRole('row')
        .filter({ hasText: first.paymentReference }),
    ).toContainText(`Payment of the sale #${first.ref}`);
  });

  await test.step('the first sale is paid: 20,00 € from the statement and 14,70 € from the queue', async () => {
    const row = await saleRow(page, first.ref);
    await expect(row.getByText('Paid', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: `Payments #${first.ref}` }).click();
    const dialog = page.getByRole('dialog', { name: `Payments of sale #${first.ref}` });
    const payments = dialog.getByRole('table', { name: 'Payments' });
    await expect(payments.getByRole('row')).toHaveCount(3);
    await expect(payments).toContainText(/20,00\s€/);
    await expect(payments).toContainText(/14,70\s€/);
    await expect(payments).toContainText('From a bank statement');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('record a manual payment of part of the second sale: partially paid', async () => {
    const row = await saleRow(page, second.ref);
    await expect(row.getByText('Unpaid', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: `Record payment #${second.ref}` }).click();
    const dialog = page.getByRole('dialog', { name: `Payments of sale #${second.ref}` });
    await expect(dialog.getByRole('textbox', { name: /Date/ })).toHaveValue(TODAY_FRENCH);
    const amount = dialog.getByRole('textbox', { name: /Amount/ });
    await amount.fill('40,00');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expect(dialog.getByText(/remains to pay/).first()).toBeVisible();
    await amount.fill('10,45');
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await screenshot(page, 'sale-record-payment');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expectSuccessToast(page, `was recorded for the sale #${second.ref}`);
    await expect(row.getByText('Partially paid', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await expectNoAxeViolations(page);
    await checkAtPhoneWidth(page, 'sales-payment-status');
  });
});
