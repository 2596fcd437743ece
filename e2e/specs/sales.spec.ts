import type { Locator, Page } from '@playwright/test';
import {
  createProductThroughApi,
  franceThroughApi,
  listProductsThroughApi,
  listReferenceItemsThroughApi,
  uniqueName,
} from '../fixtures/catalogue.ts';
import { orgToday } from '../fixtures/dates.ts';
import { ADMIN } from '../fixtures/env.ts';
import { type CapturedEmail, emailsSoFar, listEmailFiles, readEmail } from '../fixtures/mail.ts';
import { searchSalesThroughApi } from '../fixtures/sales.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  dismissToasts,
  expectErrorToast,
  expectSuccessToast,
  keepDownload,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/**
 * Sales (part 2 §2.5 Sales list, §2.6 New sale, §4, §7 Sales, §8, §9 total formula): a sale of three
 * lines with a free line, a discount, delivery and donation; its TOTAL against the saved one; the Swiss
 * prices; the invoice; the stock going down and back up when the invoiced sale is cancelled; the exports; the bulk email dialog.
 */

/** A French amount as shown (`1 234,50 (€)`, `12,50 €`) read back as a number. */
function amountOf(text: string): number {
  const digits = text
    .replace(/\(.*\)|€|CHF/g, '')
    .replace(/[\s\u202f\u00a0]/g, '')
    .replace(',', '.');
  return Number(digits);
}

/** Waits for a captured email to `address` with this subject, not among `ignore` (the outbox is asynchronous). */
async function waitForEmail(
  address: string,
  subject: string,
  ignore: ReadonlySet<string>,
): Promise<CapturedEmail> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const file of await listEmailFiles()) {
      if (ignore.has(file)) continue;
      const email = await readEmail(file);
      if (email.to.toLowerCase().includes(address.toLowerCase()) && email.subject.includes(subject))
        return email;
    }
    if (Date.now() > deadline) throw new Error(`No email '${subject}' to ${address} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The row of a table holding this exact text. */
function rowWith(table: Locator, text: string): Locator {
  return table.getByRole('row').filter({ has: table.page().getByText(text, { exact: true }) });
}

/** Types into a money input key by key, as a person would (the field selects its amount on focus). */
async function typeAmount(field: Locator, text: string) {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.pressSequentially(text, { delay: 30 });
}

async function addLine(page: Page, product: string, quantity: number) {
  await page.getByRole('combobox', { name: 'Product' }).click();
  await page.getByRole('option', { name: product, exact: true }).click();
  const quantityField = page.getByRole('textbox', { name: 'Quantity', exact: true });
  await quantityField.fill(String(quantity));
  await page.getByRole('button', { name: 'Add Line' }).click();
  await expect(quantityField).toHaveValue('0');
}

test('a member of staff sells three products, downloads the invoice and cancels the sale', async ({
  page,
  request,
  adminToken,
}) => {
  const currencies = await listReferenceItemsThroughApi(request, adminToken, '/api/currencies');
  const countries = await listReferenceItemsThroughApi(request, adminToken, '/api/ctries');
  const euro = currencies.find((currency) => currency.symbol === '€');
  const france = countries.find((country) => country.name.toLowerCase().includes('france')) ?? countries[0];
  if (!euro || !france) throw new Error('The reference data has no euro currency or no country');

  const agenda = await createProductThroughApi(request, adminToken, {
    name: uniqueName('Agenda'),
    euroPrice: 12.5,
    swissPrice: 14,
    currentStock: 20,
    minStockAlert: 2,
  });
  const badge = await createProductThroughApi(request, adminToken, {
    name: uniqueName('Badge'),
    euroPrice: 0.35,
    swissPrice: 0.4,
    currentStock: 20,
    minStockAlert: 2,
  });
  const calendar = await createProductThroughApi(request, adminToken, {
    name: uniqueName('Calendrier'),
    euroPrice: 19.99,
    swissPrice: 21.5,
    currentStock: 20,
    minStockAlert: 2,
  });
  const buyer = await seedSubscriberThroughApi(request, adminToken, {
    title: 'Mme',
    firstName: 'Anne',
    lastName: uniqueName('Vente'),
    currencyId: euro.id,
    countryId: france.id,
    address1: '1 rue de la Paix',
    town: 'Lyon',
    postcode: '69001',
    association: 'Les Amis',
  });
  const buyerName = `${buyer.firstName} ${buyer.lastName}`;

  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('the New Sale screen opens with the subscriber and the Sale Info defaults', async () => {
    await page.goto(`/#/newsale/${buyer.id}`);
    await expect(page.getByRole('heading', { name: `New Sale for ${buyerName}` })).toBeVisible();
    await expect(page.getByRole('link', { name: buyerName })).toHaveAttribute(
      'href',
      `#/subscriber/${buyer.id}`,
    );
    await expect(page.getByLabel('Address 1')).toHaveValue('1 rue de la Paix');
    await expect(page.getByLabel('Town')).toHaveValue('Lyon');
    await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue(france.name);
    await expect(page.getByText('(No - not a Swiss sale)')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Payment Terms (days)' })).toHaveValue('30');
    await expect(page.getByRole('textbox', { name: 'Payment Terms (days)' })).toHaveAttribute('readonly');
    await expect(page.getByText('Please add some product lines.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Line' })).toBeDisabled();
  });

  let shownTotal = 0;
  await test.step('three lines, one free, a discount, delivery and donation', async () => {
    await page.getByLabel('Order Number').fill('PO-2025-17');
    await page.getByRole('switch', { name: /Include thanks\?/ }).check();
    await page.getByRole('switch', { name: /Include payment terms\?/ }).check();
    await page.getByRole('textbox', { name: 'Payment Terms (days)' }).fill('45');
    // The same product added twice makes one line of 1 + 2 (part 2 §2.6 Line adder).
    await addLine(page, agenda.name, 1);
    await addLine(page, agenda.name, 2);
    await addLine(page, badge.name, 3);
    await addLine(page, calendar.name, 2);
    const lines = page.getByRole('table', { name: 'Sale lines' });
    await expect(rowWith(lines, agenda.name)).toHaveCount(1);
    await expect(page.getByRole('textbox', { name: `Quantity of ${agenda.name}` })).toHaveValue('3');
    // Leaving with lines not saved asks first (the unsaved-changes guard); Stay keeps them.
    await page.getByRole('link', { name: buyerName }).click();
    const unsaved = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(unsaved).toBeVisible();
    await unsaved.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(new RegExp(`#/newsale/${buyer.id}$`));
    await expect(rowWith(lines, agenda.name)).toHaveCount(1);
    await expect(rowWith(lines, badge.name)).toContainText('1,05 €');
    await rowWith(lines, calendar.name)
      .getByRole('button', { name: `Free ${calendar.name}` })
      .click();
    await expect(rowWith(lines, calendar.name)).toContainText('0,00 €');

    await typeAmount(page.getByRole('textbox', { name: 'Remise %' }), '10');
    await typeAmount(page.getByRole('textbox', { name: 'Frais/livraison' }), '5,50');
    await typeAmount(page.getByRole('textbox', { name: 'Dons' }), '20,00');
    // 37,50 + 1,05 = 38,55; remise 10 % = 3,855 -> 3,86; + 5,50 + 20,00 = 60,19
    await expect(page.getByLabel('Sub-Total amount', { exact: true })).toHaveText(/^38,55 €$/);
    await expect(page.getByLabel('Remise amount')).toHaveText(/3,86 €$/);
    await expect(page.getByLabel('TOTAL amount', { exact: true })).toHaveText('60,19 (€)');
    shownTotal = amountOf((await page.getByLabel('TOTAL amount', { exact: true }).textContent()) ?? '');
    await screenshot(page, 'sales-new-sale');
    await page.getByLabel('TOTAL amount', { exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'sales-new-sale-lines', { fullPage: false });
  });

  await test.step('swissSale switches every price to the Swiss one and back', async () => {
    const lines = page.getByRole('table', { name: 'Sale lines' });
    await page.getByRole('switch', { name: /Swiss sale\?/ }).check();
    await expect(page.getByText('(Yes - Swiss sale)')).toBeVisible();
    await expect(rowWith(lines, agenda.name)).toContainText('14,00 CHF');
    await expect(rowWith(lines, agenda.name)).toContainText('42,00 CHF');
    await expect(page.getByLabel('TOTAL amount', { exact: true })).toContainText('(CHF)');
    await screenshot(page, 'sales-new-sale-swiss', { fullPage: false });
    await page.getByRole('switch', { name: /Swiss sale\?/ }).uncheck();
    await expect(rowWith(lines, agenda.name)).toContainText('12,50 €');
    await expect(page.getByLabel('TOTAL amount', { exact: true })).toHaveText('60,19 (€)');
  });

  let ref = 0;
  await test.step('Save: the subscriber’s sales, the saved TOTAL equals the shown one, stock went down', async () => {
    await page.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, `The sale for '${buyerName}' was saved successfully`);
    await expect(page).toHaveURL(new RegExp(`#/sales\\?subid=${buyer.id}&`));
    await expect(page.getByRole('heading', { name: `Sales for ${buyerName}` })).toBeVisible();

    const [saved] = await searchSalesThroughApi(request, adminToken, { id: buyer.id });
    if (!saved) throw new Error('The sale was not saved');
    ref = saved.ref;
    const [byRef] = await searchSalesThroughApi(request, adminToken, { salesref: ref });
    expect(byRef?.id).toBe(saved.id);
    expect(saved.total).toBe(shownTotal);
    expect(saved.total).toBe(60.19);

    const row = rowWith(page.getByRole('table', { name: 'Sales' }), `#${ref}`);
    await expect(row).toContainText('60,19 (€)');
    await expect(row).toContainText(orgToday());
    await expect(row).toHaveCSS('opacity', '1');
    const stock = await listProductsThroughApi(request, adminToken);
    expect(stock.find((product) => product.id === agenda.id)?.currentStock).toBe(17);
    expect(stock.find((product) => product.id === badge.id)?.currentStock).toBe(17);
    expect(stock.find((product) => product.id === calendar.id)?.currentStock).toBe(18);
    await screenshot(page, 'sales-list-subscriber');
  });

  await test.step('the invoice downloads as sale-invoice-{ref}.pdf', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: `Invoice #${ref}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`sale-invoice-${ref}.pdf`);
    const bytes = await keepDownload(download);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  await test.step('Export Sales and Export Itemised Sales download their CSV', async () => {
    for (const [item, filename] of [
      ['Export Sales', 'sales-export.csv'],
      ['Export Itemised Sales', 'detailed-sales-export.csv'],
    ] as const) {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const downloading = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: item }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(filename);
      const text = (await keepDownload(download)).toString('utf8').replace(/^\uFEFF/, '');
      expect(text).toContain(buyer.lastName);
      if (filename === 'detailed-sales-export.csv') expect(text).toContain(badge.name);
    }
  });

  await test.step('the Export menu offers the Excel-FR dialect: semicolons and decimal commas', async () => {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const excel = page.getByRole('menuitem', { name: /Excel \(France\)/ });
    await excel.click();
    await expect(excel).toHaveAttribute('aria-current', 'true');
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export Itemised Sales' }).click();
    const text = (await keepDownload(await downloading)).toString('utf8').replace(/^\uFEFF/, '');
    expect(text.split('\n')[0]).toBe(
      'ref;date;name;postcode;currency;productId;product;quantity;unitPrice;lineTotal;' +
        'email;association;address1;address2;address3;town;country;discountPercentage;deliveryCharge;donation;total;orderNumber',
    );
    expect(text).toMatch(/;\d+,\d{2};\d+,\d{2};/);
    // Back to the standard dialect for the steps below.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('menuitem', { name: /Standard CSV/ }).click();
    await page.keyboard.press('Escape');
  });

  await test.step('its invoice issued, Remove says why it cannot; Cancel sale puts the stock back', async () => {
    const row = rowWith(page.getByRole('table', { name: 'Sales' }), `#${ref}`);
    await row.getByRole('button', { name: 'Remove' }).click();
    await screenshot(page, 'sales-confirm-delete', { fullPage: false });
    await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
    await expectErrorToast(page, 'Its invoice was issued: cancel the sale with a credit note instead.');
    await row.getByRole('button', { name: 'Cancel sale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel sale' });
    await dialog.getByLabel('Reason').fill('Commande annulée par téléphone');
    await dialog.getByRole('button', { name: 'Cancel the sale' }).click();
    await expectSuccessToast(page, `Sale #${ref} was cancelled by the credit note n°`);
    await expect(page.getByText(`#${ref} (cancelled)`)).toBeVisible();
    const stock = await listProductsThroughApi(request, adminToken);
    for (const product of [agenda, badge, calendar]) {
      expect(stock.find((item) => item.id === product.id)?.currentStock).toBe(20);
    }
  });
});

test('the Sales search, its totals export and the Email Subscribers dialog', async ({
  page,
  request,
  adminToken,
}) => {
  const currencies = await listReferenceItemsThroughApi(request, adminToken, '/api/currencies');
  const swiss = currencies.find((currency) => (currency.symbol ?? '').toLowerCase().includes('chf'));
  if (!swiss) throw new Error('The reference data has no Swiss franc');
  const product = await createProductThroughApi(request, adminToken, {
    name: uniqueName('Livre'),
    euroPrice: 30,
    swissPrice: 32.5,
    currentStock: 10,
  });
  // A sale in francs carries a QR-bill: its buyer needs a postcode, a town and a country.
  const country = await franceThroughApi(request, adminToken);
  const buyer = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Jean',
    lastName: uniqueName('Suisse'),
    currencyId: swiss.id,
    postcode: '1200',
    town: 'Genève',
    countryId: country.id,
    email: `${Date.now()}-jean@example.org`,
  });

  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('a Swiss-franc sale: swissSale is on by itself', async () => {
    await page.goto(`/#/newsale/${buyer.id}`);
    await expect(page.getByRole('switch', { name: /Swiss sale\?/ })).toBeChecked();
    await addLine(page, product.name, 2);
    await expect(page.getByLabel('TOTAL amount', { exact: true })).toHaveText('65,00 (CHF)');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, `The sale for 'Jean ${buyer.lastName}' was saved successfully`);
  });

  await test.step('without a subscriber: criteria first, then the search', async () => {
    await page.goto('/#/sales');
    await expect(page.getByRole('heading', { name: 'Sales', exact: true })).toBeVisible();
    await expect(page.getByText('Please enter some search criteria.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Email Subscribers...' })).toBeDisabled();
    await page.getByLabel('Last Name').fill(buyer.lastName);
    await page.getByLabel('Last Name').press('Enter');
    const row = rowWith(page.getByRole('table', { name: 'Sales' }), `Jean ${buyer.lastName}`);
    await expect(row).toContainText('65,00 (CHF)');
    await expect(row).toHaveCSS('opacity', '1');
    await screenshot(page, 'sales-list-search');

    await page.getByLabel('Last Name').fill('nobody-by-this-name');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('No sales match the search criteria.')).toBeVisible();
    await page.getByLabel('Last Name').fill(buyer.lastName);
    await page.getByLabel('Last Name').press('Enter');
    await expect(row).toBeVisible();
  });

  await test.step('Export Sales Totals asks for the period and downloads the totals', async () => {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Export Sales Totals' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export Sales Totals' });
    await expect(dialog).toBeVisible();
    await screenshot(page, 'sales-totals-modal', { fullPage: false });
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const download = await downloading;
    const year = new Date().getFullYear();
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^sales totals \\(${year}-01-01-${year}-\\d{2}-\\d{2}\\)\\.csv$`),
    );
    const text = (await keepDownload(download)).toString('utf8');
    expect(text).toContain(product.name);
    await expect(dialog).toBeHidden();
  });

  await test.step('Email Subscribers...: its messages, then Send', async () => {
    await page.getByRole('button', { name: 'Email Subscribers...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Email Subscribers' });
    const send = dialog.getByRole('button', { name: 'Send', exact: true });
    await expect(send).toBeDisabled();
    await expect(dialog.getByText(/^1 will receive it\. Skipped: /)).toBeVisible();
    await dialog.getByLabel('Subject').fill('Mer');
    await dialog.getByLabel('Message').fill('Bonjour {firstName}, merci !');
    await send.click();
    await expect(dialog.getByText('Please complete all the information!')).toBeVisible();
    await expect(dialog.getByText('Subject is required')).toBeVisible();
    await screenshot(page, 'sales-email-modal', { fullPage: false });
    await dialog.getByLabel('Subject').fill('Merci pour votre achat');
    await expect(dialog.getByText('Please complete all the information!')).toBeHidden();
    await expect(dialog.getByRole('region', { name: 'Preview' })).toContainText('Bonjour Jean, merci !');

    const before = await emailsSoFar();
    await send.click();
    await dialog.getByRole('button', { name: 'Yes, send' }).click();
    await expectSuccessToast(page, 'Email(s) submitted successfully!');
    await expect(dialog.getByText('Queued: 0 · Sent: 1 · Failed: 0')).toBeVisible({ timeout: 20_000 });
    await dismissToasts(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    const sent = await waitForEmail(buyer.email ?? '', 'Merci pour votre achat', before);
    expect(sent.text).toContain('Bonjour Jean, merci !');
  });
});
