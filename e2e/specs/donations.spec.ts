import type { Locator, Page } from '@playwright/test';
import { asRecords, readCells, readSheet } from '../../apps/server/test/xlsx.ts';
import { listReferenceItemsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { orgToday } from '../fixtures/dates.ts';
import {
  createDonationThroughApi,
  searchDonationsThroughApi,
  waitForEmailTo,
} from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { emailsSoFar } from '../fixtures/mail.ts';
import {
  type ApiSubscriberRecord,
  createReferenceItemThroughApi,
  seedSubscriberThroughApi,
} from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  expectErrorToast,
  expectSuccessToast,
  keepDownload,
  openFromAdminMenu,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/**
 * Donations and tax receipts (part 2 §2.4, §4 Donations list, §5 New donation, §7 Donations, §8):
 * add a donation from a subscriber's donations page, search across all donations by filters, select two
 * and delete them, download a receipt, email one, and run the annual receipts of a year.
 */

test.describe.configure({ mode: 'serial' });

/** Letters only, so that the stamp searches like a last name. */
function stamp(): string {
  return uniqueName('')
    .trim()
    .replace(/[^a-z]/gi, '')
    .slice(-6)
    .toLowerCase()
    .replace(/^./, (letter) => letter.toUpperCase());
}

function donationsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Donations' });
}

function donationRow(page: Page, text: string | RegExp): Locator {
  return donationsTable(page).getByRole('row').filter({ hasText: text });
}

function searchForm(page: Page): Locator {
  return page.getByRole('search', { name: 'Search donations' });
}

/** Picks `option` in the Mantine select labelled `label`; typing narrows a searchable one's long list. */
async function choose(page: Page, label: string, option: string, { type = false } = {}) {
  const input = searchForm(page).getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (type) await input.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Types a day as French staff do (dd/mm/yyyy) into the date field labelled `label`. */
async function typeDate(page: Page, label: string, iso: string) {
  const [year, month, day] = iso.split('-');
  const field = searchForm(page).getByRole('textbox', { name: label, exact: true });
  await field.fill(`${day}/${month}/${year}`);
  await field.press('Tab');
  await expect(field).toHaveValue(`${day}/${month}/${year}`);
}

/** Types into a currency or number input key by key, as a person would. */
async function typeAmount(field: Locator, text: string) {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.pressSequentially(text, { delay: 30 });
}

/**
 * Opens one subscriber's donations page as the subscriber screen's View Donations does (part 2 §2.2,
 * §2.4: params subid, fn, ln, sy) and waits for its "Donations for {name}" heading, which it returns.
 */
async function openDonationsOf(
  page: Page,
  subscriber: { id: number; firstName: string; lastName: string },
  currencySymbol: string,
): Promise<Locator> {
  const query = new URLSearchParams({
    subid: String(subscriber.id),
    fn: subscriber.firstName,
    ln: subscriber.lastName,
    sy: currencySymbol,
  });
  await page.goto(`/#/donations?${query.toString()}`);
  const heading = page.getByRole('heading', {
    name: `Donations for ${subscriber.firstName} ${subscriber.lastName}`,
  });
  await expect(heading).toBeVisible();
  return heading;
}

/** Empties the search form (Clear) and runs a search with the given last name plus `fill`. */
async function search(page: Page, lastName: string, fill: () => Promise<void> = async () => {}) {
  const form = searchForm(page);
  await form.getByRole('button', { name: 'Clear' }).click();
  await form.getByLabel('Last Name').fill(lastName);
  await fill();
  await form.getByRole('button', { name: 'Search' }).click();
}

async function amountsShown(page: Page): Promise<string[]> {
  await expect(page.getByText('Loading...')).toHaveCount(0);
  const cells = donationsTable(page).getByRole('row').locator('td:nth-child(4)');
  return (await cells.allTextContents()).map((text) => text.replace(/\s/g, ' '));
}

let french: ApiSubscriberRecord;
let swiss: ApiSubscriberRecord;
let family: string;
/** The Swiss donor's category (the French one has none). */
let patrons: { id: number; name: string };

test.beforeAll(async ({ request, adminToken }) => {
  const countries = await listReferenceItemsThroughApi(request, adminToken, '/api/ctries');
  const methods = await listReferenceItemsThroughApi(request, adminToken, '/api/pmethods');
  const france = countries.find((country) => country.name === 'France');
  const suisse = countries.find((country) => country.name === 'Suisse');
  const sepa = methods.find((method) => method.directDebit);
  const cheque = methods.find((method) => !method.directDebit);
  if (!france || !suisse || !sepa || !cheque) throw new Error('Reference data is missing');
  family = `Don${stamp()}`;
  patrons = await createReferenceItemThroughApi(request, adminToken, '/api/cats', `Mécènes ${family}`);
  french = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Amélie',
    lastName: `${family} Martin`,
    currencyId: 1,
    countryId: france.id,
    paymentMethodId: sepa.id,
    email: `${family.toLowerCase()}.martin@example.org`,
    address1: '12 rue de la Paix',
    town: 'Paris',
    postcode: '75002',
  });
  swiss = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Urs',
    lastName: `${family} Muller`,
    currencyId: 2,
    countryId: suisse.id,
    paymentMethodId: cheque.id,
    categoryId: patrons.id,
    address1: 'Rue du Rhône 5',
    town: 'Genève',
    postcode: '1204',
  });
  for (const [subscriber, amount, donationDate] of [
    [french, 40, '2024-05-10'],
    [french, 300, '2025-01-15'],
    [swiss, 80, '2025-02-20'],
    [swiss, 1000, '2024-12-01'],
  ] as const) {
    await createDonationThroughApi(request, adminToken, { subid: subscriber.id, amount, donationDate });
  }
});

test('adds a donation from the donations page of a subscriber', async ({ page, request, adminToken }) => {
  const newcomer = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Jeanne',
    lastName: `Dupont ${stamp()}`,
    currencyId: 1,
    postcode: '69001',
  });
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  const heading = await openDonationsOf(page, newcomer, '€');
  await expect(heading.getByRole('link')).toHaveAttribute('href', `#/subscriber/${newcomer.id}`);
  await expect(page.getByText('No donations from this subscriber yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete Selected Donations' })).toBeDisabled();

  await page.getByRole('button', { name: 'Add New Donation' }).click();
  const modal = page.getByRole('dialog', { name: 'Add New Donation' });
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByText('Please complete all the information!')).toBeVisible();
  await expect(modal.getByText('Amount is required')).toBeVisible();
  // French thousands and the decimal comma, as typed.
  // Typed again when a key was lost while the field was still settling after the refused save.
  await expect(async () => {
    await typeAmount(modal.getByLabel('Amount'), '1 234,5');
    await modal.getByLabel('Amount').press('Tab');
    await expect(modal.getByLabel('Amount')).toHaveValue('€ 1.234,50', { timeout: 2000 });
  }).toPass();
  await modal.getByLabel('Notes to appear on receipt').fill('Don pour la revue, merci !');
  await expect(modal.getByText('Please complete all the information!')).toBeHidden();
  await screenshot(page, 'donations-add-modal');

  await modal.getByRole('button', { name: 'Save' }).click();
  await expectSuccessToast(page, "Donation for '1 234,50' was created successfully!");
  await expect(modal).toBeHidden();

  const row = donationRow(page, orgToday());
  await expect(row).toContainText(/1\s234,50 €/);
  await expect(row.getByRole('link', { name: `Jeanne ${newcomer.lastName}` })).toBeVisible();
  await expect(page.getByText('1 rows')).toBeVisible();
  await page.waitForTimeout(1000); // the new row's fade-in (part 2 §9: 900 ms)
  await screenshot(page, 'donations-subscriber');

  const saved = await searchDonationsThroughApi(request, adminToken, { id: newcomer.id });
  expect(saved.models).toMatchObject([
    { amount: 1234.5, dateAdded: orgToday(), notes: 'Don pour la revue, merci !' },
  ]);

  // A Swiss subscriber gives in francs: the amount is prefixed with CHF.
  const swissDonor = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Heidi',
    lastName: `Keller ${stamp()}`,
    currencyId: 2,
    postcode: '1700',
  });
  await openDonationsOf(page, swissDonor, 'CHF');
  await page.getByRole('button', { name: 'Add New Donation' }).click();
  // `1,5` is one franc fifty, never 15; a minus sign is refused as it is typed.
  await typeAmount(modal.getByLabel('Amount'), '-1,5');
  await modal.getByLabel('Amount').press('Tab');
  await expect(modal.getByLabel('Amount')).toHaveValue('CHF 1,50');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expectSuccessToast(page, "Donation for '1,50' was created successfully!");
  await expect(donationRow(page, orgToday())).toContainText(/1,50\sCHF/);
  const swissSaved = await searchDonationsThroughApi(request, adminToken, { id: swissDonor.id });
  expect(swissSaved.models).toMatchObject([{ amount: 1.5, currencySymbol: 'CHF', dateAdded: orgToday() }]);
});

test('a refused save names the field, moves the focus to it, and one more click saves', async ({
  page,
  request,
  adminToken,
}) => {
  const donor = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Luc',
    lastName: `Refus ${stamp()}`,
    currencyId: 1,
    postcode: '75011',
  });
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openDonationsOf(page, donor, '€');
  await page.getByRole('button', { name: 'Add New Donation' }).click();
  const modal = page.getByRole('dialog', { name: 'Add New Donation' });
  await typeAmount(modal.getByLabel('Amount'), '12,5');

  // The server refuses the first save (as when the day moved on).
  let refusedOnce = false;
  await page.route(
    (url) => url.pathname === '/api/donations',
    async (route) => {
      if (route.request().method() !== 'POST' || refusedOnce) return route.fallback();
      refusedOnce = true;
      return route.fulfill({
        status: 400,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          code: 'donations.future_date',
          errors: [{ path: 'donationDate', message: 'The donation date cannot be in the future.' }],
        }),
      });
    },
  );
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByRole('alert', { name: 'Not saved: please correct' })).toContainText(
    'Donation Date: The donation date cannot be in the future.',
  );
  await expect(modal.getByRole('textbox', { name: 'Donation Date' })).toBeFocused();
  await screenshot(page, 'donations-add-refused');
  await modal.getByRole('textbox', { name: 'Donation Date' }).press('Tab'); // closes its calendar
  await modal.getByRole('button', { name: 'Save' }).click();
  await expectSuccessToast(page, "Donation for '12,50' was created successfully!");
  await expect(modal).toBeHidden();
  expect(refusedOnce).toBe(true);
  const saved = await searchDonationsThroughApi(request, adminToken, { id: donor.id });
  expect(saved.models).toMatchObject([{ amount: 12.5 }]);
});

test('scrolls through more than one page of 50 donations', async ({ page, request, adminToken }) => {
  const generous = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Paul',
    lastName: `Généreux ${stamp()}`,
    currencyId: 2,
    postcode: '1003',
  });
  // 60 gifts, one a day from 2023-01-01: newest first, the oldest is on the second page.
  for (let index = 0; index < 60; index += 1) {
    const day = new Date(Date.UTC(2023, 0, 1 + index)).toISOString().slice(0, 10);
    await createDonationThroughApi(request, adminToken, {
      subid: generous.id,
      amount: 10 + index,
      donationDate: day,
    });
  }
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openDonationsOf(page, generous, 'CHF');
  await expect(page.getByText('60 rows')).toBeVisible();
  await expect(donationRow(page, '2023-03-01')).toBeVisible();
  await expect(donationRow(page, '2023-01-01')).toHaveCount(0);
  // The table scrolls with the page: scrolling near its end loads the next page (listfrom 51).
  for (let attempt = 0; attempt < 10; attempt += 1) {
    await page.mouse.wheel(0, 2000);
    if ((await donationRow(page, '2023-01-01').count()) > 0) break;
    await page.waitForTimeout(400);
  }
  await expect(donationRow(page, '2023-01-01')).toBeVisible();
  await expect(donationRow(page, '2023-01-01')).toContainText('10,00 CHF');
});

test('searches across all donations by filters', async ({ page }) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Donations' }).click();
  await expect(page.getByRole('heading', { name: 'Donations', exact: true })).toBeVisible();
  await expect(page.getByText('Please enter some search criteria.')).toBeVisible();

  await test.step('last name, with Enter', async () => {
    await searchForm(page).getByLabel('Last Name').fill(family);
    await searchForm(page).getByLabel('Last Name').press('Enter');
    await expect(page.getByText('4 rows')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['80,00 CHF', '300,00 €', '1 000,00 CHF', '40,00 €']);
    await expect(donationRow(page, '40,00 €')).toHaveCSS('opacity', '1'); // rows fade in (part 2 §9)
    await screenshot(page, 'donations-search');
  });

  await test.step('payment method: direct debit only, then not direct debit', async () => {
    await search(page, family, () => choose(page, 'Payment Method', 'Paid by Direct Debit Only'));
    await expect(page.getByText('2 rows')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['300,00 €', '40,00 €']);
    await search(page, family, () => choose(page, 'Payment Method', 'Not Paid by Direct Debit'));
    await expect(page.getByText('2 rows')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['80,00 CHF', '1 000,00 CHF']);
  });

  await test.step('country and postcode', async () => {
    await search(page, family, () => choose(page, 'Country', 'Suisse', { type: true }));
    expect(await amountsShown(page)).toEqual(['80,00 CHF', '1 000,00 CHF']);
    await search(page, family, () => searchForm(page).getByLabel('Postcode').fill('7500'));
    expect(await amountsShown(page)).toEqual(['300,00 €', '40,00 €']);
  });

  await test.step('category', async () => {
    await search(page, family, () => choose(page, 'Category', patrons.name, { type: true }));
    await expect(page.getByText('2 rows')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['80,00 CHF', '1 000,00 CHF']);
  });

  await test.step('amounts, greater than and less than', async () => {
    await search(page, family, async () => {
      await typeAmount(searchForm(page).getByLabel('Amount greater than'), '80');
      await typeAmount(searchForm(page).getByLabel('Amount less than'), '1000');
    });
    await expect(page.getByText('1 rows')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['300,00 €']);
  });

  await test.step('dates: added after and added before', async () => {
    await search(page, family, async () => {
      await typeDate(page, 'Added After', '2024-12-01');
      await typeDate(page, 'Added Before', '2025-02-20');
    });
    await expect(page.getByText('2 rows')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['300,00 €', '1 000,00 CHF']);
  });

  await test.step('nothing found', async () => {
    await search(page, `${family}zzz`);
    await expect(page.getByText('No donations match the search criteria.')).toBeVisible();
  });

  await test.step('the filters are kept for the next visit', async () => {
    await search(page, family, () => choose(page, 'Country', 'Suisse', { type: true }));
    await expect(page.getByText('2 rows')).toBeVisible();
    await page.reload();
    await expect(searchForm(page).getByLabel('Last Name')).toHaveValue(family);
    await expect(page.getByText('2 rows')).toBeVisible();
  });
});

test('selects two donations and deletes them', async ({ page, request, adminToken }) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto('/#/donations');
  await search(page, family);
  await expect(page.getByText('4 rows')).toBeVisible();

  const deleteSelected = page.getByRole('button', { name: 'Delete Selected Donations' });
  await expect(deleteSelected).toBeDisabled();
  await donationRow(page, '40,00 €').getByRole('checkbox').check();
  await donationRow(page, '80,00 CHF').getByRole('checkbox').check();
  await expect(deleteSelected).toBeEnabled();
  await deleteSelected.click();
  const dialog = page.getByRole('dialog', { name: 'Delete Selected Donations' });
  await expect(dialog).toContainText('Delete the 2 selected donations?');
  await screenshot(page, 'donations-bulk-delete');
  await dialog.getByRole('button', { name: 'CONFIRM DELETE' }).click();
  await expectSuccessToast(page, '2 donations were deleted successfully!');
  await expect(page.getByText('2 rows')).toBeVisible();
  expect(await amountsShown(page)).toEqual(['300,00 €', '1 000,00 CHF']);
  await expect(deleteSelected).toBeDisabled();

  const left = await searchDonationsThroughApi(request, adminToken, { name: family });
  expect(left.models.map((donation) => donation.amount)).toEqual([300, 1000]);
});

test('downloads a receipt, then cannot delete the receipted donation', async ({ page }) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto('/#/donations');
  await search(page, family);
  const row = donationRow(page, '300,00 €');
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Receipt' }).click();
  await expect(page.getByRole('menuitem', { name: 'Email' })).toBeVisible();
  await screenshot(page, 'donations-receipt-menu');
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^donation-\d+-receipt\.pdf$/);
  const pdf = await keepDownload(download);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(row).toContainText(/n° \d+/);

  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
  await expectErrorToast(
    page,
    'Houston - there was a problem deleting a donation. This donation is on tax receipt',
  );
  await expect(row.getByRole('button', { name: 'Remove' })).toBeVisible();
  // The toast may cover the next row's button, and a pointer resting on it keeps it open: close it.
  const refusal = page.getByRole('alert').filter({ hasText: 'Oh Oh!' });
  await refusal.getByRole('button').click();
  await expect(refusal).toHaveCount(0);

  // The Swiss donor has no email address: Download only.
  await donationRow(page, '1 000,00 CHF').getByRole('button', { name: 'Receipt' }).click();
  await expect(page.getByRole('menuitem', { name: 'Download' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Email' })).toHaveCount(0);
  await page.keyboard.press('Escape');
});

test('emails a receipt to the donor', async ({ page }) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openDonationsOf(page, french, '€');
  const row = donationRow(page, '300,00 €');
  await expect(row).toBeVisible();
  const before = await emailsSoFar();
  await row.getByRole('button', { name: 'Receipt' }).click();
  await page.getByRole('menuitem', { name: 'Email' }).click();
  await expectSuccessToast(page, 'Donation receipt was emailed successfully!');
  const email = await waitForEmailTo(french.email, { ignore: before });
  expect(email.source).toMatch(/Content-Type: application\/pdf/i);
  expect(email.source).toMatch(/donation-\d+-receipt\.pdf/);
});

test('exports the donations and the addresses', async ({ page }) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto('/#/donations');
  await search(page, family);
  await expect(page.getByText('2 rows')).toBeVisible();
  const exported = async (item: string, name: string) => {
    await page.getByRole('button', { name: 'Export' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: item }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(name);
    return asRecords((await readSheet(await keepDownload(download))).rows);
  };

  // One row per donation found, newest first, in the donor's currency.
  const donations = await exported('Export Donations', 'donation-details-export.xlsx');
  expect(
    donations.map((row) => [row['Last name'], row.Amount, row.Currency, row.Town, row['Payment method']]),
  ).toEqual([
    [french.lastName, 300, '€', 'Paris', expect.any(String)],
    [swiss.lastName, 1000, 'CHF', 'Genève', expect.any(String)],
  ]);

  // One row per donor found, with the address and the total of the matching gifts.
  const donors = await exported('Export Addresses', 'donation-subscribers-export.xlsx');
  expect(
    donors.map((row) => [row['Last name'], row['Address 1'], row.Postcode, row.Email, row.Gifts, row.Total]),
  ).toEqual([
    [french.lastName, '12 rue de la Paix', '75002', french.email, 1, 300],
    // No email address: an empty cell.
    [swiss.lastName, 'Rue du Rhône 5', '1204', undefined, 1, 1000],
  ]);

  // Postcodes stay text (no apostrophe), amounts show 2 decimals, dates are dates.
  await page.getByRole('button', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export Donations' }).click();
  const [newest] = await readCells(await keepDownload(await downloading));
  expect(newest?.Postcode).toMatchObject({ value: '75002', numFmt: '@' });
  expect(newest?.Amount).toMatchObject({ value: 300, numFmt: '#,##0.00' });
  expect(newest?.Date?.value).toBeInstanceOf(Date);
  expect(newest?.Date?.numFmt).toBe('dd/mm/yyyy');
});

test('downloads and emails annual receipts from the subscriber screen', async ({
  page,
  request,
  adminToken,
}) => {
  const year = new Date().getFullYear();
  const name = `Annuel ${stamp()}`;
  const donor = await seedSubscriberThroughApi(request, adminToken, {
    title: 'Mme',
    firstName: 'Élise',
    lastName: name,
    currencyId: 1,
    email: `${name.replace(' ', '.').toLowerCase()}@example.org`,
    address1: '4 quai Rambaud',
    town: 'Lyon',
    postcode: '69002',
  });
  for (const [amount, donationDate] of [
    [20, `${year - 1}-03-01`],
    [30.5, `${year - 1}-06-15`],
    [15, `${year}-01-02`],
  ] as const) {
    await createDonationThroughApi(request, adminToken, { subid: donor.id, amount, donationDate });
  }
  const fileName = (of: number) => `${name.replace(' ', '-').toLowerCase()}-donations-receipt-${of}.pdf`;
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto(`/#/subscriber/${donor.id}`);
  await expect(page.getByRole('heading', { name: `Mme Élise ${name}` })).toBeVisible();

  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: `Email Receipt (${year - 1})` })).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCSS('opacity', '1');
  await screenshot(page, 'subscriber-receipt-actions', { fullPage: false });
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: `Download Receipt (${year - 1})` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(fileName(year - 1));
  expect((await keepDownload(download)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  const before = await emailsSoFar();
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: `Email Donation Receipt (${year})` }).click();
  await expectSuccessToast(
    page,
    `Annual donation receipt was emailed successfully! 1 receipt issued, emailed to ${donor.email}.`,
  );
  const email = await waitForEmailTo(donor.email, { ignore: before });
  // French by default, as text and as HTML.
  expect(email.subject).toBe(`Reçu fiscal ${year}`);
  expect(email.text).toContain(`reçu fiscal récapitulatif des dons de l'année ${year}`);
  expect(email.source).toMatch(/Content-Type: text\/html/i);
  expect(email.source).toMatch(/Content-Type: application\/pdf/i);
  expect(email.source).toContain(fileName(year));

  // The two gifts of last year share one annual receipt; this year's gift has its own.
  const gifts = (await searchDonationsThroughApi(request, adminToken, { id: donor.id })).models;
  const numbers = gifts.map((gift) => gift.receiptNumber);
  expect(numbers.every((number) => number !== null)).toBe(true);
  expect(new Set(numbers).size).toBe(2);

  // A subscriber without gifts this year gets the reason, not a file.
  const newcomer = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Paul',
    lastName: `Sansdon ${stamp()}`,
    currencyId: 1,
  });
  await page.goto(`/#/subscriber/${newcomer.id}`);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: `Download Donation Receipt (${year})` }).click();
  await expectErrorToast(
    page,
    `Houston - there was a problem exporting the subscribers. There are no donations for ${year}.`,
  );
});

test('an Administrator runs the annual receipts of a year and sees it finish', async ({
  page,
  request,
  adminToken,
}) => {
  // A gift of 2024 not on a single receipt yet: the French donor (with an email address) gets the
  // annual receipt by email; the Swiss donor (without one) goes to the file to print.
  await createDonationThroughApi(request, adminToken, {
    subid: french.id,
    amount: 55,
    donationDate: '2024-03-03',
  });
  const before = await emailsSoFar();
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Annual Receipts');
  const year = '2024';
  const yearField = page.getByRole('combobox', { name: 'Year', exact: true });
  await yearField.click();
  await page.getByRole('option', { name: year, exact: true }).click();
  await expect(yearField).toHaveValue(year);
  await page.getByRole('button', { name: 'Send annual receipts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send annual receipts' });
  await expect(dialog).toContainText(`Send the annual receipts of ${year}?`);
  await dialog.getByRole('button', { name: 'Send' }).click();

  const card = page.getByRole('region', { name: `Annual receipts ${year}` });
  await expect(card).toBeVisible();
  await expect(card.getByText('Done')).toBeVisible({ timeout: 30_000 });
  await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(
    page.getByText(
      new RegExp(`The annual receipts of ${year} are done: \\d+ receipts? issued, \\d+ donors? emailed\\.`),
    ),
  ).toBeVisible();
  await screenshot(page, 'donations-annual-receipts');
  const email = await waitForEmailTo(french.email, { ignore: before });
  expect(email.source).toMatch(/Content-Type: application\/pdf/i);
  expect(email.source).toMatch(/-donations-receipt-2024\.pdf/);

  // The Swiss donor of 2024 has no email address: their receipt is in the file to print.
  const downloading = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download receipts to print' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`annual-receipts-${year}-to-print.pdf`);
  expect((await keepDownload(download)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByRole('table', { name: 'Recent runs' }).getByRole('row').nth(1)).toContainText(year);
});
