/**
 * SEPA direct-debit collections (not in the spec; docs/decisions/029, 030): with the settings and a
 * donor's mandate and monthly gift set through the API, an administrator builds the collection of a
 * due date, reviews it, downloads its pain.008 file (which locks it and emails the debtor), settles it,
 * then imports the bank's camt.054 return of that debit; the screens pass axe, fit 375 px and work
 * with the keyboard. The due date is in 2031, a year no other spec collects.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectFitsPhone, expectNoAxeViolations, PHONE } from '../fixtures/accessibility.ts';
import { euroThroughApi, franceThroughApi } from '../fixtures/catalogue.ts';
import { camt054Return, ensureCollectionSettingsThroughApi } from '../fixtures/collections.ts';
import { waitForEmailTo } from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { emailsSoFar } from '../fixtures/mail.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  expectSuccessToast,
  keepDownload,
  openFromAdminMenu,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/** The due date: day 23 (no other spec's gift falls on it), at least 14 days ahead whenever this runs. */
const DUE_DATE = '2031-03-23';
const DUE_DAY = '23/03/2031';
const DESKTOP = { width: 1280, height: 900 } as const;

/**
 * At 375 px, once the layout's transitions (the side menu sliding away) are over: the page kept as
 * phone-<name>.png and expected not to scroll sideways; then back to the desktop width.
 */
async function checkAtPhoneWidth(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  await expectFitsPhone(page, name);
  await page.setViewportSize(DESKTOP);
}

test('an administrator builds, exports and settles a collection, then imports its return', async ({
  page,
  request,
  adminToken,
}) => {
  // Specs share one database: a reference of this run only.
  const rum = `COLL-${randomUUID().slice(0, 8).toUpperCase()}`;
  const email = `${rum.toLowerCase()}@example.org`;
  await ensureCollectionSettingsThroughApi(request, adminToken);
  const france = await franceThroughApi(request, adminToken);
  const euro = await euroThroughApi(request, adminToken);
  const subscriber = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Apolline',
    lastName: `Prélèvement-${rum}`,
    email,
    countryId: france.id,
    currencyId: euro.id,
  });
  const debtor = `Apolline Prélèvement-${rum}`;
  const mandateResponse = await request.post(`/api/subscribers/${subscriber.id}/mandates`, {
    data: { rum, iban: 'DE89 3704 0044 0532 0130 00', signedOn: '2025-01-15', type: 'recurring' },
    headers: bearer(adminToken),
  });
  await expectOk(mandateResponse, 'POST /api/subscribers/{id}/mandates');
  const mandate = (await mandateResponse.json()) as { id: number };
  const planResponse = await request.post(`/api/subscribers/${subscriber.id}/plans`, {
    data: {
      amount: 25.5,
      frequency: 'monthly',
      dayOfMonth: 23,
      startOn: '2031-01-23',
      mandateId: mandate.id,
    },
    headers: bearer(adminToken),
  });
  await expectOk(planResponse, 'POST /api/subscribers/{id}/plans');
  const plan = (await planResponse.json()) as { id: number };

  await page.setViewportSize(DESKTOP);
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Collections');
  let collectionId = 0;

  await test.step('build the collection of the due date, typed the French way', async () => {
    const form = page.getByRole('form', { name: 'Build a collection' });
    const dueDate = form.getByRole('textbox', { name: /Due date/ });
    await dueDate.fill(DUE_DAY);
    await dueDate.press('Tab');
    await expect(dueDate).toHaveValue(DUE_DAY);
    await form.getByRole('button', { name: 'Build the collection' }).click();
    await expectSuccessToast(page, `The draft of the collection of ${DUE_DAY} holds`);
    await expect(page.getByRole('heading', { name: `Collection of ${DUE_DAY}`, level: 1 })).toBeVisible();
    collectionId = Number(/#\/collections\/(\d+)$/.exec(page.url())?.[1]);
    expect(collectionId).toBeGreaterThan(0);
  });

  const endToEndId = `C${collectionId}-P${plan.id}-${DUE_DATE.replaceAll('-', '')}`;
  const lines = page.getByRole('table', { name: 'Lines' });
  const line = lines.getByRole('row').filter({ hasText: debtor });

  await test.step('review it: the debtor, RUM, reference, masked IBAN, amount and sequence type', async () => {
    await expect(page.getByText('Draft', { exact: true })).toBeVisible();
    await expect(line.getByRole('link', { name: debtor })).toHaveAttribute(
      'href',
      `#/subscriber/${subscriber.id}`,
    );
    await expect(line.getByRole('cell', { name: rum, exact: true })).toBeVisible();
    await expect(line.getByRole('cell', { name: endToEndId, exact: true })).toBeVisible();
    await expect(line.getByRole('cell', { name: '•••• 3000', exact: true })).toBeVisible();
    await expect(line.getByRole('cell', { name: '25,50 €', exact: true })).toBeVisible();
    await expect(line.getByRole('cell', { name: 'FRST', exact: true })).toBeVisible();
    await expect(line.getByText('Pending')).toBeVisible();
    // The toasts (with their close buttons) gone first, as in the other specs.
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await expectNoAxeViolations(page);
    await screenshot(page, 'collection-detail-draft');
    await checkAtPhoneWidth(page, 'collection-detail-draft');
  });

  await test.step('download the file after the warning: pain.008 with the debtor, and the debtor emailed', async () => {
    await ensureCollectionSettingsThroughApi(request, adminToken);
    const before = await emailsSoFar();
    await page.getByRole('button', { name: 'Download the file' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download the file' });
    await expect(dialog.getByText(/each debtor is emailed the amount and the date/)).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: /File version/ })).toHaveValue('pain.008.001.08');
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Lock and download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`collection-${DUE_DATE}.xml`);
    const xml = (await keepDownload(download)).toString('utf8');
    expect(xml).toContain('urn:iso:std:iso:20022:tech:xsd:pain.008.001.08');
    expect(xml).toContain(`<MndtId>${rum}</MndtId>`);
    expect(xml).toContain(`<EndToEndId>${endToEndId}</EndToEndId>`);
    await expectSuccessToast(page, `The file collection-${DUE_DATE}.xml was downloaded`);
    await expect(page.getByText('Exported', { exact: true })).toBeVisible();
    await expect(lines.getByRole('button', { name: 'Remove' })).toHaveCount(0);
    const notice = await waitForEmailTo(email, { ignore: before });
    expect(notice.text).toContain(rum);
  });

  await test.step('settle it with the keyboard', async () => {
    await page.getByRole('button', { name: 'Settle' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Settle the collection' });
    await expect(dialog.getByRole('button', { name: 'Settle' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expectSuccessToast(page, `The collection of ${DUE_DAY} is settled`);
    await expect(page.getByText('Settled', { exact: true })).toBeVisible();
    await expect(line.getByText('Collected')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await screenshot(page, 'collection-detail-settled');
    await checkAtPhoneWidth(page, 'collection-detail-settled');
  });

  await test.step('the history lists it', async () => {
    await page.getByRole('link', { name: 'Collections', exact: true }).first().click();
    await expect(page.getByRole('heading', { name: 'Collections', level: 1 })).toBeVisible();
    const row = page
      .getByRole('table', { name: 'Collections' })
      .getByRole('row')
      .filter({ hasText: DUE_DAY });
    await expect(row.getByText('Settled')).toBeVisible();
    await expect(row.getByRole('link', { name: `Collection of ${DUE_DAY}` })).toHaveAttribute(
      'href',
      `#/collections/${collectionId}`,
    );
  });

  await test.step("import the bank's camt.054 return of the debit", async () => {
    const form = page.getByRole('form', { name: 'Import returns' });
    await form.getByLabel('Bank return file').setInputFiles({
      name: 'camt054-returns.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(camt054Return(endToEndId, 'AC04', '25.50')),
    });
    await form.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Import done' })).toContainText(
      '1 applied, 0 already applied, 0 not sent, 0 unknown',
    );
    const card = page.getByRole('listitem', { name: `Return of ${debtor}` });
    await expect(card).toContainText('Returned: AC04 (account closed)');
    await expect(card).toContainText('Donation cancelled. Mandate suspended.');
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await expectNoAxeViolations(page);
    await screenshot(page, 'collections-returns');
    await checkAtPhoneWidth(page, 'collections-returns');
  });

  await test.step('the line is returned, and the mandate suspended on the subscriber screen', async () => {
    await page.goto(`/#/collections/${collectionId}`);
    await expect(line.getByText('Returned', { exact: true })).toBeVisible();
    await expect(line.getByText('AC04 (account closed)')).toBeVisible();
    await page.goto(`/#/subscriber/${subscriber.id}`);
    const card = page
      .getByRole('region', { name: 'Mandates' })
      .getByRole('listitem', { name: `Mandate ${rum}` });
    await expect(card.getByText('Suspended', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Suspended on \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
    await expect(card.getByRole('button', { name: `Revoke mandate ${rum}` })).toBeVisible();
  });
});
