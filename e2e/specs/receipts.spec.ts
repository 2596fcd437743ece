/**
 * The receipt register (not in the spec; docs/decisions/023): two receipts issued through the API are
 * listed on the Receipts screen (opened from the main menu); an Administrator cancels one with a reason
 * (its PDF then prints ANNULÉ), replaces the other by the next number, has the register verified and
 * exports it; the screen and its dialogs pass axe and fit a 375 px phone. Other specs share the
 * database: the receipts are found by the numbers the API gave them, in a year no other spec uses.
 */
import type { Locator, Page } from '@playwright/test';
import { pdfPages } from '../../apps/server/test/pdf-text.ts';
import { expectFitsPhone, expectNoAxeViolations } from '../fixtures/accessibility.ts';
import { euroThroughApi, franceThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { createDonationThroughApi } from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, keepDownload, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** The year of the seeded gifts: no other spec gives in it, so the register filtered by it holds only ours. */
const YEAR = 2017;

/** A receipt as `GET /api/receipts` lists it (the fields this spec reads). */
type ApiRegisteredReceipt = { number: number; subscriberId: number; status: string };

const receiptsTable = (page: Page) => page.getByRole('table', { name: 'Receipts' });

/** The row of the register showing receipt `number`. */
function receiptRow(page: Page, number: number): Locator {
  return receiptsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: `n° ${number}`, exact: true }) });
}

/** Waits until the toasts have closed on their own (5 s), so that axe and the screenshots see the screen alone. */
async function toastsGone(page: Page) {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

test('an Administrator cancels, replaces and verifies receipts of the register', async ({
  page,
  request,
  adminToken,
}) => {
  const euro = await euroThroughApi(request, adminToken);
  const france = await franceThroughApi(request, adminToken);
  const donor = await seedSubscriberThroughApi(request, adminToken, {
    currencyId: euro.id,
    countryId: france.id,
    title: 'Mme',
    firstName: 'Zoé',
    lastName: uniqueName('Registre'),
    address1: '3 rue des Lilas',
    town: 'Annecy',
    postcode: '74000',
  });
  for (const [amount, donationDate] of [
    [40, `${YEAR}-05-10`],
    [75.5, `${YEAR}-09-20`],
  ] as const) {
    const donation = await createDonationThroughApi(request, adminToken, {
      subid: donor.id,
      amount,
      donationDate,
    });
    // The first download of a donation's receipt issues it.
    await expectOk(
      await request.get(`/api/donations/receipt/${donation.id}`, { headers: bearer(adminToken) }),
      `GET /api/donations/receipt/${donation.id}`,
    );
  }
  const listed = await request.get(`/api/receipts?year=${YEAR}&listlength=500`, {
    headers: bearer(adminToken),
  });
  await expectOk(listed, `GET /api/receipts?year=${YEAR}`);
  const ours = ((await listed.json()) as { models: ApiRegisteredReceipt[] }).models.filter(
    (receipt) => receipt.subscriberId === donor.id,
  );
  expect(ours.map((receipt) => receipt.status)).toEqual(['issued', 'issued']);
  const [toCancel, toReplace] = ours.map((receipt) => receipt.number) as [number, number];

  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('Receipts opens from the main menu and lists both receipts of the year', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Receipts', exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Receipts', exact: true, level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/#\/receipts$/);
    const search = page.getByRole('search', { name: 'Search receipts' });
    await search.getByRole('textbox', { name: 'Year' }).fill(String(YEAR));
    await search.getByRole('textbox', { name: 'Year' }).press('Enter');
    await expect(page.getByText('2 receipts', { exact: true })).toBeVisible();
    for (const [number, amount] of [
      [toCancel, '40,00 €'],
      [toReplace, '75,50 €'],
    ] as const) {
      const row = receiptRow(page, number);
      await expect(row).toContainText(amount);
      await expect(row).toContainText('Issued');
      await expect(row.getByRole('link', { name: `Mme Zoé ${donor.lastName}` })).toBeVisible();
    }
    await screenshot(page, 'receipts-list');
    await expectNoAxeViolations(page);
  });

  await test.step('a receipt is cancelled with a reason, with the keyboard', async () => {
    await receiptRow(page, toCancel)
      .getByRole('button', { name: `Cancel receipt n° ${toCancel}…` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Cancel receipt n° ${toCancel}` });
    await expect(dialog).toContainText(
      `Receipt n° ${toCancel} will be printed ANNULÉ with this reason; its gifts can be receipted again.`,
    );
    const reason = dialog.getByRole('textbox', { name: 'Reason' });
    await expect(reason).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel the receipt' }).click();
    await expect(dialog.getByText('Say why the receipt is cancelled.')).toBeVisible();
    await reason.focus();
    await page.keyboard.type('Don remboursé');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Cancel the receipt' })).toBeFocused();
    await screenshot(page, 'receipts-cancel-dialog', { fullPage: false });
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await page.keyboard.press('Enter');
    await expectSuccessToast(page, `Receipt n° ${toCancel} cancelled.`);
    await expect(dialog).toBeHidden();
    const row = receiptRow(page, toCancel);
    await expect(row).toContainText('Cancelled');
    await expect(row).toContainText('Don remboursé');
    await expect(row.getByRole('button', { name: /^Cancel receipt/ })).toHaveCount(0);
  });

  let replacement = 0;
  await test.step('the other receipt is replaced by the next number', async () => {
    await receiptRow(page, toReplace)
      .getByRole('button', { name: `Replace receipt n° ${toReplace}…` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Replace receipt n° ${toReplace}` });
    await expect(dialog).toContainText(
      `Receipt n° ${toReplace} is cancelled and a receipt with the next number will be issued for the same gifts.`,
    );
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Adresse du donateur corrigée');
    await screenshot(page, 'receipts-replace-dialog', { fullPage: false });
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await dialog.getByRole('button', { name: 'Replace the receipt' }).click();
    const toast = page
      .getByRole('alert')
      .filter({ hasText: new RegExp(`Receipt n° \\d+ issued to replace n° ${toReplace}\\.`) });
    await expect(toast).toBeVisible();
    replacement = Number(/Receipt n° (\d+) issued/.exec((await toast.textContent()) ?? '')?.[1]);
    expect(replacement).toBeGreaterThan(toReplace);
    await expect(dialog).toBeHidden();
    await expect(receiptRow(page, toReplace)).toContainText(`replaced by n° ${replacement}`);
    await expect(receiptRow(page, toReplace)).toContainText('Cancelled');
    const row = receiptRow(page, replacement);
    await expect(row).toContainText(`replaces n° ${toReplace}`);
    await expect(row).toContainText('Issued');
    await expect(row).toContainText('75,50 €');
    await expect(page.getByText('3 receipts', { exact: true })).toBeVisible();
  });

  await test.step('the register is verified whole', async () => {
    await page.getByRole('button', { name: 'Verify the register' }).click();
    await expect(
      page.getByText(/^The register is whole: [\d\s]+ receipts? checked, every hash matches\.$/),
    ).toBeVisible();
    await toastsGone(page);
    await screenshot(page, 'receipts-verified');
    await expectNoAxeViolations(page);
  });

  await test.step('the cancelled receipt downloads printed ANNULÉ, and the register as CSV', async () => {
    const downloading = page.waitForEvent('download');
    await receiptRow(page, toCancel)
      .getByRole('button', { name: `PDF of receipt n° ${toCancel}` })
      .click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`receipt-${toCancel}.pdf`);
    const [text] = await pdfPages(await keepDownload(download));
    expect(text).toContain('ANNULÉ');
    expect(text).toContain('Don remboursé');

    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'Standard CSV: commas, decimal point' }).click();
    const exporting = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export the register' }).click();
    const csv = await exporting;
    expect(csv.suggestedFilename()).toBe('receipts-register.csv');
    const lines = (await keepDownload(csv)).toString('utf8').split(/\r?\n/);
    for (const number of [toCancel, toReplace, replacement]) {
      expect(lines.some((line) => line.startsWith(`${number},`))).toBe(true);
    }
  });

  await test.step('at 375 px the register scrolls inside its box, not the page', async () => {
    await expectFitsPhone(page, 'receipts');
    await screenshot(page, 'receipts-375');
    await expect(receiptRow(page, replacement).getByRole('button', { name: /^PDF/ })).toBeAttached();
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const menuItem = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Receipts', exact: true });
    await menuItem.scrollIntoViewIfNeeded();
    await expect(menuItem).toBeVisible();
    await screenshot(page, 'receipts-375-menu', { fullPage: false });
  });
});
