import type { Locator, Page } from '@playwright/test';
import { asRecords, readSheet } from '../../apps/server/test/xlsx.ts';
import { expectNoAxeViolations } from '../fixtures/accessibility.ts';
import { listReferenceItemsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { type CapturedEmail, listEmailFiles, readEmail } from '../fixtures/mail.ts';
import {
  createReferenceItemThroughApi,
  ensureMandateSettingsThroughApi,
  getSubscriberThroughApi,
  searchSubscribersThroughApi,
  seedSubscriberThroughApi,
} from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  dismissToasts,
  expectSuccessToast,
  keepDownload,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/**
 * Subscribers (part 2 §2.1 search, §2.2 record, §2.3 history, §4, §5, §7 Subscribers, §8):
 * search with every kind of filter and infinite scroll, create with tags and a Swiss address, edit
 * under the unsaved-changes guard, history, Copy to Notes, XLSX export, RUM letter, bulk email, delete.
 */

test.describe.configure({ mode: 'serial' });

/** Letters only, so that the stamp sorts and searches like a name. */
function stamp(): string {
  return uniqueName('')
    .trim()
    .replace(/[^a-z]/gi, '')
    .slice(-6)
    .toLowerCase()
    .replace(/^./, (letter) => letter.toUpperCase());
}

function resultRow(page: Page, name: string | RegExp): Locator {
  return page.getByRole('table', { name: 'Subscribers' }).getByRole('row').filter({ hasText: name });
}

/** Picks `option` in the Mantine select labelled `label` (typing narrows long lists). */
async function choose(scope: Page | Locator, page: Page, label: string, option: string) {
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Picks a day in the calendar of the date field labelled `label`: days are named in French
 * ("7 mars 2026"), and the field then shows it as dd/mm/yyyy.
 */
async function pickDay(page: Page, label: string, date: Date) {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  const dayLabel = `${date.getDate()} ${date.toLocaleString('fr-FR', { month: 'long' })} ${date.getFullYear()}`;
  await page.getByRole('button', { name: dayLabel, exact: true }).click();
  await expect(page.getByRole('textbox', { name: label, exact: true })).toHaveValue(
    `${String(date.getDate()).padStart(2, '0')}/${String(date.getMonth() + 1).padStart(2, '0')}/${date.getFullYear()}`,
  );
  // The calendar closes (with a short transition) before the next one opens.
  await expect(page.getByRole('button', { name: dayLabel, exact: true })).toHaveCount(0);
}

/** Clicks Save on the subscriber screen and expects its success toast. */
async function saveSubscriber(page: Page, fullName: string) {
  await dismissToasts(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expectSuccessToast(page, `The subscriber '${fullName}' was saved successfully`);
}

async function filtersForm(page: Page): Promise<Locator> {
  const form = page.getByRole('search', { name: 'Subscriber search filters' });
  await expect(form).toBeVisible();
  return form;
}

async function clearFilters(page: Page) {
  await (await filtersForm(page)).getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByText('Please enter some search criteria.')).toBeVisible();
}

async function search(page: Page) {
  await (await filtersForm(page)).getByRole('button', { name: 'Search' }).click();
}

/** Waits for the emails to `address` (not among `ignore`) whose subject matches. */
async function waitForEmailsTo(
  address: string,
  subject: string,
  ignore: ReadonlySet<string>,
  timeoutMs = 20_000,
): Promise<CapturedEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const file of await listEmailFiles()) {
      if (ignore.has(file)) continue;
      const email = await readEmail(file);
      if (email.to.toLowerCase().includes(address.toLowerCase()) && email.subject.includes(subject))
        return email;
    }
    if (Date.now() > deadline) throw new Error(`No email "${subject}" to ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('subscribers: search with filters, create, edit, history, export, RUM letter, bulk email, delete', async ({
  page,
  request,
  adminToken,
}) => {
  test.setTimeout(420_000);
  const key = stamp();
  const filtreName = `Filtre${key}`;
  const defileName = `Defile${key}`;
  const createdName = `Nouveau${key}`;

  // Reference data: the seeded countries, currencies and payment methods, plus a category and tags.
  const countries = await listReferenceItemsThroughApi(request, adminToken, '/api/ctries');
  const currencies = await listReferenceItemsThroughApi(request, adminToken, '/api/currencies');
  const paymentMethods = await listReferenceItemsThroughApi(request, adminToken, '/api/pmethods');
  const find = (items: { id: number; name: string }[], name: string) => {
    const item = items.find((candidate) => candidate.name === name);
    if (!item) throw new Error(`No ${name} in ${items.map((candidate) => candidate.name).join(', ')}`);
    return item;
  };
  const suisse = find(countries, 'Suisse');
  const france = find(countries, 'France');
  const euro = find(currencies, 'EURO');
  const swissFranc = find(currencies, 'Swiss Franc');
  const cheque = find(paymentMethods, 'Chèque');
  const category = await createReferenceItemThroughApi(request, adminToken, '/api/cats', `Donateurs ${key}`);
  const tag = await createReferenceItemThroughApi(request, adminToken, '/api/tags', `Bénévole ${key}`);
  const otherTag = await createReferenceItemThroughApi(request, adminToken, '/api/tags', `Presse ${key}`);
  await ensureMandateSettingsThroughApi(request, adminToken);

  const zoe = await seedSubscriberThroughApi(request, adminToken, {
    title: 'Mme',
    firstName: 'Zoé',
    lastName: filtreName,
    email: `zoe.${key.toLowerCase()}@example.org`,
    address1: '12 rue du Lac',
    town: 'Lausanne',
    postcode: '1003',
    countryId: suisse.id,
    currencyId: swissFranc.id,
    association: `Amis ${key}`,
    categoryId: category.id,
    paymentMethodId: cheque.id,
    copies: 3,
    tags: [tag.name],
  });
  const marc = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Marc',
    lastName: filtreName,
    email: `marc.${key.toLowerCase()}@example.org`,
    address1: '4 place Bellecour',
    town: 'Lyon',
    postcode: '69002',
    countryId: france.id,
    currencyId: euro.id,
    copies: 1,
    inactive: true,
    inactiveReason: 'Déménagé',
  });
  // More than a page of 50 for the infinite scroll.
  for (let index = 1; index <= 60; index += 1) {
    await seedSubscriberThroughApi(request, adminToken, {
      firstName: `P${String(index).padStart(2, '0')}`,
      lastName: defileName,
      address1: `${index} avenue des Tilleuls`,
      postcode: '75011',
      currencyId: euro.id,
    });
  }

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto('/#/subscribers');
  await expect(page.getByRole('heading', { name: 'Subscribers', exact: true })).toBeVisible();
  await expect(page.getByText('Please enter some search criteria.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Email Subscribers...' })).toBeDisabled();

  await test.step('a last-name search shows 60 rows; scrolling loads the second page', async () => {
    const form = await filtersForm(page);
    await form.getByLabel('Last Name').fill(defileName);
    await form.getByLabel('Last Name').press('Enter');
    await expect(page.getByText('60 rows')).toBeVisible();
    await expect(resultRow(page, `P01 ${defileName}`)).toBeVisible();
    await expect(resultRow(page, `P60 ${defileName}`)).toHaveCount(0);
    await screenshot(page, 'subscribers-search-results', { fullPage: false });

    const secondPage = page.waitForRequest((req) => req.url().includes('listfrom=51'));
    // The list scrolls with the page: wheel down until the end of the table nears the window's bottom.
    await page.mouse.move(640, 400);
    for (let turn = 0; turn < 6; turn += 1) await page.mouse.wheel(0, 700);
    await secondPage;
    await expect(page.getByText('60 rows')).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(resultRow(page, `P60 ${defileName}`)).toBeVisible();
    await screenshot(page, 'subscribers-search-scrolled', { fullPage: false });
  });

  await test.step('every kind of filter narrows the search', async () => {
    const form = await filtersForm(page);
    const expectOnly = async (names: string[]) => {
      await search(page);
      await expect(page.getByText(`${names.length} rows`)).toBeVisible();
      for (const name of names) await expect(resultRow(page, name)).toBeVisible();
    };

    await clearFilters(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await expectOnly([`Zoé ${filtreName}`, `Marc ${filtreName}`]);

    // Text filters are accent-insensitive prefixes.
    await form.getByLabel('First Name').fill('zoe');
    await expectOnly([`Zoé ${filtreName}`]);
    await form.getByLabel('First Name').fill('');
    await form.getByLabel('Town').fill('Laus');
    await expectOnly([`Zoé ${filtreName}`]);
    await form.getByLabel('Town').fill('');
    await form.getByLabel('Postal Code').fill('6900');
    await expectOnly([`Marc ${filtreName}`]);
    await form.getByLabel('Postal Code').fill('');

    await clearFilters(page);
    await form.getByLabel('Association').fill(`amis ${key}`);
    await expectOnly([`Zoé ${filtreName}`]);

    await clearFilters(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await choose(form, page, 'Country', 'France');
    await expectOnly([`Marc ${filtreName}`]);

    await clearFilters(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await form.getByRole('combobox', { name: 'Mailing List Status' }).click();
    await page.getByRole('option', { name: 'Excluded Only' }).click();
    await expectOnly([`Marc ${filtreName}`]);
    await form.getByRole('combobox', { name: 'Mailing List Status' }).click();
    await page.getByRole('option', { name: 'Included Only' }).click();
    await expectOnly([`Zoé ${filtreName}`]);
    await form.getByRole('combobox', { name: 'Mailing List Status' }).click();
    await page.getByRole('option', { name: 'Included & Excluded' }).click();
    await expectOnly([`Zoé ${filtreName}`, `Marc ${filtreName}`]);

    await clearFilters(page);
    await choose(form, page, 'Custom Tag', tag.name);
    await expectOnly([`Zoé ${filtreName}`]);

    await clearFilters(page);
    await choose(form, page, 'Category', category.name);
    await expectOnly([`Zoé ${filtreName}`]);
    await expect(resultRow(page, `Zoé ${filtreName}`)).toContainText(category.name);

    await clearFilters(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await choose(form, page, 'Payment Method', cheque.name);
    await expectOnly([`Zoé ${filtreName}`]);

    await clearFilters(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await form.getByLabel('Receiving x or more copies').fill('2');
    await expectOnly([`Zoé ${filtreName}`]);

    // Both were added today: after yesterday and before tomorrow finds both, after tomorrow none.
    const today = new Date();
    const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
    const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
    await clearFilters(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await pickDay(page, 'Added After', yesterday);
    await pickDay(page, 'Added Before', tomorrow);
    await screenshot(page, 'subscribers-search-filters', { fullPage: false });
    const searchRequest = page.waitForRequest((req) => req.url().includes('/api/subscribers/?'));
    await expectOnly([`Zoé ${filtreName}`, `Marc ${filtreName}`]);
    const url = new URL((await searchRequest).url());
    expect(url.searchParams.get('addedafter')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await clearFilters(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await pickDay(page, 'Added After', tomorrow);
    await search(page);
    await expect(page.getByText('No subscribers match the search criteria.')).toBeVisible();
  });

  await test.step('the filters are kept in local storage and restored on return', async () => {
    await clearFilters(page);
    const form = await filtersForm(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await form.getByLabel('Town').fill('Ly');
    await search(page);
    await expect(page.getByText('1 rows')).toBeVisible();
    await page.goto('/#/home');
    await page.goto('/#/subscribers');
    await expect((await filtersForm(page)).getByLabel('Town')).toHaveValue('Ly');
    await expect(resultRow(page, `Marc ${filtreName}`)).toBeVisible();
    await clearFilters(page);
    await expect((await filtersForm(page)).getByLabel('Town')).toHaveValue('');
  });

  let createdId = 0;
  await test.step('create a subscriber with tags and a Swiss address: the currency becomes CHF', async () => {
    await page.getByRole('link', { name: 'Add New' }).click();
    await expect(page).toHaveURL(/#\/subscriber\/new$/);
    await expect(page.getByRole('heading', { name: 'New Subscriber' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Currency' })).toHaveValue('EURO');
    await expect(page.getByRole('button', { name: 'Actions' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Save' }).click();
    const required = page.getByRole('alert').filter({ hasText: 'Required:' });
    await expect(required).toContainText('First name.');
    await expect(required).toContainText('Last name.');
    await expect(required).not.toContainText('Currency.');

    await page.getByLabel('Title', { exact: true }).fill('M.');
    await page.getByLabel('First Name').fill('Élie');
    await page.getByLabel('Last Name').fill(createdName);
    await expect(required).toHaveCount(0);
    await page.getByLabel('Address 1').fill('3 rue du Rhône');
    await page.getByLabel('Town').fill('Genève');
    await page.getByLabel('Postcode').fill('1204');
    await choose(page, page, 'Country', 'Suisse');
    await expect(page.getByRole('combobox', { name: 'Currency' })).toHaveValue('Swiss Franc');
    await page.getByLabel('Email', { exact: true }).fill(`elie.${key.toLowerCase()}@example.org`);

    // Tags: only existing ones can be added.
    const tags = page.getByRole('combobox', { name: 'Tags' });
    await tags.click();
    await tags.fill('Nope');
    await expect(page.getByText('No tag of that name exists')).toBeVisible();
    await tags.fill(tag.name);
    await page.getByRole('option', { name: tag.name }).click();
    await tags.fill(otherTag.name);
    await page.getByRole('option', { name: otherTag.name }).click();
    await page.getByRole('textbox', { name: 'Notes' }).click();
    await screenshot(page, 'subscriber-new-filled', { fullPage: false });

    await saveSubscriber(page, `Élie ${createdName}`);
    await expect(page).toHaveURL(/#\/subscriber\/\d+$/);
    createdId = Number(page.url().split('/').pop());
    await expect(page.getByRole('heading', { name: `M. Élie ${createdName}` })).toBeVisible();
    const saved = await getSubscriberThroughApi(request, adminToken, createdId);
    expect(saved).toMatchObject({
      firstName: 'Élie',
      lastName: createdName,
      town: 'Genève',
      countryId: suisse.id,
      currencyId: swissFranc.id,
      addedBy: expect.any(String),
    });
    expect([...saved.tags].sort()).toEqual([tag.name, otherTag.name].sort());
    await expect(page.getByLabel('Added By')).toHaveValue(saved.addedBy);
  });

  await test.step('edit: leaving with unsaved changes (a link, Forward, closing the tab) asks first; saving then lets go', async () => {
    // Unchanged, the page lets go: to Home and back (this leaves a Forward entry made by the app;
    // entries made by typing an address cannot be held by the router).
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/#\/home$/);
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`#/subscriber/${createdId}$`));
    await expect(page.getByLabel('Town')).toHaveValue('Genève');
    await page.getByLabel('Town').fill('Carouge');
    await page.getByLabel('Postcode').press('Enter'); // Enter never submits
    await expect(page.getByRole('alert').filter({ hasText: 'was saved successfully' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'View History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(dialog).toContainText('You have unsaved changes! If you leave, your changes will be lost.');
    await screenshot(page, 'subscriber-unsaved-guard', { fullPage: false });
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(new RegExp(`#/subscriber/${createdId}$`));
    await expect(page.getByLabel('Town')).toHaveValue('Carouge');
    await expect(dialog).toBeHidden();

    // The browser's Forward (and Back) button asks too; Stay keeps the page and the edit.
    // history.forward() is what the button does; page.goForward() would wait for a navigation that the
    // guard holds back, and never returns.
    await page.evaluate(() => window.history.forward());
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(new RegExp(`#/subscriber/${createdId}$`));
    await expect(page.getByLabel('Town')).toHaveValue('Carouge');

    // Closing the tab asks through the browser's own prompt; cancelling it keeps the page and the edit.
    const prompt = page.waitForEvent('dialog', { timeout: 10_000 });
    await page.close({ runBeforeUnload: true });
    const unload = await prompt;
    expect(unload.type()).toBe('beforeunload');
    await unload.dismiss();
    await expect(page.getByLabel('Town')).toHaveValue('Carouge');

    await saveSubscriber(page, `Élie ${createdName}`);
    expect((await getSubscriberThroughApi(request, adminToken, createdId)).town).toBe('Carouge');
  });

  await test.step('Copy to Notes appends the address block', async () => {
    await page.getByRole('button', { name: 'Copy to Notes' }).click();
    const notes = page.getByRole('textbox', { name: 'Notes' });
    await expect(notes).toHaveValue(
      /^Address changed \(\d{2}-\d{2}-\d{4}\):\n3 rue du Rhône\nCarouge\n1204\nSuisse$/,
    );
    await notes.press('End');
    await notes.press('Shift+Enter');
    await notes.pressSequentially('Appelé le 3.');
    await expect(notes).toHaveValue(/Suisse\nAppelé le 3\.$/);
    await saveSubscriber(page, `Élie ${createdName}`);
    expect((await getSubscriberThroughApi(request, adminToken, createdId)).notes).toContain(
      'Address changed (',
    );
  });

  await test.step('the RUM letter downloads as {lastname}-rum-letter.pdf', async () => {
    await page.getByRole('button', { name: 'Actions' }).click();
    await expect(page.getByRole('menuitem', { name: 'View History' })).toBeVisible();
    await screenshot(page, 'subscriber-actions-menu', { fullPage: false });
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Generate RUM Letter' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${createdName}-rum-letter.pdf`);
    const bytes = await keepDownload(download);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The letter gave the subscriber a mandate reference; a later save is not refused as stale.
    await expect
      .poll(async () => (await getSubscriberThroughApi(request, adminToken, createdId)).rum)
      .not.toBe('');
    await expect(page.getByLabel('RUM')).not.toHaveValue('');
    await page.getByLabel('Recommended By').fill('Zoé');
    await saveSubscriber(page, `Élie ${createdName}`);
  });

  await test.step('the history lists what was done, newest first', async () => {
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'View History' }).click();
    await expect(page).toHaveURL(new RegExp(`#/subscriber/${createdId}/history`));
    await expect(page.getByRole('heading', { name: `History for Élie ${createdName}` })).toBeVisible();
    const table = page.getByRole('table', { name: 'History' });
    await expect(table.getByRole('row')).not.toHaveCount(1);
    await expect(table.getByRole('row').nth(1)).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect(table).toContainText('Carouge');
    await screenshot(page, 'subscriber-history');
    await page.getByRole('link', { name: `Élie ${createdName}` }).click();
    await expect(page).toHaveURL(new RegExp(`#/subscriber/${createdId}$`));
    await expect(page.getByRole('heading', { name: `M. Élie ${createdName}` })).toBeVisible();
    await screenshot(page, 'subscriber-edit', { fullPage: false });
  });

  await test.step('export all details and email addresses as subscribers-export.xlsx', async () => {
    await page.goto('/#/subscribers');
    const form = await filtersForm(page);
    await form.getByLabel('Last Name').fill(filtreName);
    await search(page);
    await expect(page.getByText('2 rows')).toBeVisible();
    for (const item of ['Export All Details', 'Export Email Addresses']) {
      await page.getByRole('button', { name: 'Export...' }).click();
      const downloading = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: item }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('subscribers-export.xlsx');
      const bytes = await keepDownload(download);
      expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    }
  });

  await test.step('email the filtered group: counts, preview, test, confirmation, progress', async () => {
    const before = new Set(await listEmailFiles());
    await page.getByRole('button', { name: 'Email Subscribers...' }).click();
    const modal = page.getByRole('dialog', { name: 'Email Subscribers' });
    const send = modal.getByRole('button', { name: 'Send', exact: true });
    await expect(send).toBeDisabled();
    await expect(
      modal.getByText('2 will receive it. Skipped: 0 without an email address, 0 unsubscribed, 0 deleted.'),
    ).toBeVisible();
    await modal.getByPlaceholder('Enter subject').fill('Bon');
    await modal.getByLabel('Message').fill('Chère amie, cher ami,\nMerci pour votre fidélité.');
    await send.click();
    await expect(modal.getByText('Subject is required')).toBeVisible();
    await modal.getByPlaceholder('Enter subject').fill(`Bonjour {firstName} ${key}`);
    const preview = modal.getByRole('region', { name: 'Preview' });
    await expect(preview).toContainText('Merci pour votre fidélité.');
    await expect(preview).toContainText(/Preview for \S+@/);
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await screenshot(page, 'subscribers-email-modal', { fullPage: false });

    await modal.getByRole('button', { name: 'Send a test to me' }).click();
    await expectSuccessToast(page, 'Test email sent to your address.');
    const test = await waitForEmailsTo(ADMIN.email, `[Test] Bonjour`, before);
    expect(test.text).toContain('Merci pour votre fidélité.');

    // The toast sits over the dialog's buttons and stays while the pointer rests on it.
    await dismissToasts(page);
    await send.click();
    await expect(modal.getByRole('heading', { name: 'Send to 2 subscribers?' })).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Yes, send' })).toBeFocused();
    await modal.getByRole('button', { name: 'Yes, send' }).click();
    await expectSuccessToast(page, 'Email(s) submitted successfully!');
    await expect(modal.getByText('Queued: 0 · Sent: 2 · Failed: 0')).toBeVisible({ timeout: 20_000 });
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await screenshot(page, 'subscribers-email-progress', { fullPage: false });
    await dismissToasts(page);
    await modal.getByRole('button', { name: 'Done' }).click();
    await expect(modal).toBeHidden();
    const toZoe = await waitForEmailsTo(zoe.email, `Bonjour Zoé ${key}`, before);
    expect(toZoe.text).toContain('Merci pour votre fidélité.');
    const toMarc = await waitForEmailsTo(marc.email, `Bonjour Marc ${key}`, before);
    expect(toMarc.text).toContain('Merci pour votre fidélité.');

    // RFC 8058: the mail client posts to the https link of List-Unsubscribe, without any sign-in.
    expect(toZoe.listUnsubscribe).toMatch(/^<mailto:[^>]+\?subject=unsubscribe>, <http[^>]+>$/);
    const oneClick = toZoe.listUnsubscribe.match(/<(http[^>]+)>/)?.[1] ?? '';
    const unsubscribed = await request.post(oneClick, { form: { 'List-Unsubscribe': 'One-Click' } });
    expect(unsubscribed.status()).toBe(200);
    await page.getByRole('button', { name: 'Email Subscribers...' }).click();
    await expect(
      modal.getByText('1 will receive it. Skipped: 0 without an email address, 1 unsubscribed, 0 deleted.'),
    ).toBeVisible();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();
  });

  await test.step('delete a subscriber in two steps', async () => {
    const row = resultRow(page, `Marc ${filtreName}`);
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('button', { name: 'Remove' }).click();
    await screenshot(page, 'subscribers-confirm-delete', { fullPage: false });
    await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
    await expectSuccessToast(page, `Subscriber 'Marc ${filtreName}' was deleted successfully!`);
    await expect(resultRow(page, `Marc ${filtreName}`)).toHaveCount(0);
    await expect(page.getByText('1 rows')).toBeVisible();
    const left = await searchSubscribersThroughApi(request, adminToken, { name: filtreName });
    expect(left.models.map((model) => model.id)).toEqual([zoe.id]);
  });
});

test('exports a search over the inline limit in the background: progress, then the file', async ({
  page,
  request,
  adminToken,
}) => {
  // The e2e server streams at most 3 rows (EXPORT_INLINE_ROWS); four go to the background.
  const key = stamp();
  const lastName = `Grand${key}`;
  for (const firstName of ['Anne', 'Bruno', 'Chloé', 'Denis']) {
    await seedSubscriberThroughApi(request, adminToken, { firstName, lastName, currencyId: 1 });
  }
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto('/#/subscribers');
  const form = await filtersForm(page);
  await form.getByLabel('Last Name').fill(lastName);
  await search(page);
  await expect(page.getByText('4 rows')).toBeVisible();

  await page.getByRole('button', { name: 'Export...' }).click();
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('menuitem', { name: 'Export All Details' }).click();
  const progress = page.getByRole('status').filter({ hasText: 'Preparing subscribers-export.xlsx' });
  await expect(progress).toBeVisible();
  await screenshot(page, 'subscribers-export-in-background', { fullPage: false });
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('subscribers-export.xlsx');
  const records = asRecords((await readSheet(await keepDownload(download))).rows);
  expect(records.map((record) => `${record['First name']} ${record['Last name']}`)).toEqual([
    `Anne ${lastName}`,
    `Bruno ${lastName}`,
    `Chloé ${lastName}`,
    `Denis ${lastName}`,
  ]);
  await expect(page.getByText('subscribers-export.xlsx is ready')).toBeVisible();
  await expect(progress).toHaveCount(0);
});
