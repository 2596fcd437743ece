/**
 * Recurring gifts by SEPA direct debit (not in the spec; docs/decisions/028): on a subscriber's screen
 * with a recurring mandate, staff add a gift (amount typed the French way, dates dd/mm/yyyy), see it
 * in the table, pause it with the keyboard, and find the section accessible and usable at 375 px.
 */
import { randomUUID } from 'node:crypto';
import { expectFitsPhone, expectNoAxeViolations, PHONE } from '../fixtures/accessibility.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, signInThroughUi } from '../fixtures/ui.ts';

test('staff add a recurring gift under a mandate and pause it', async ({ page, request, adminToken }) => {
  // Specs share one database: a reference of this run only.
  const rum = `PLAN-${randomUUID().slice(0, 8).toUpperCase()}`;
  const subscriber = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Aurélien',
    lastName: `Don-${rum}`,
    currencyId: 1,
  });
  const mandate = await request.post(`/api/subscribers/${subscriber.id}/mandates`, {
    data: { rum, iban: 'FR7630006000011234567890189', signedOn: '2025-01-15', type: 'recurring' },
    headers: bearer(adminToken),
  });
  await expectOk(mandate, 'POST /api/subscribers/{id}/mandates');

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto(`/#/subscriber/${subscriber.id}`);
  const section = page.getByRole('region', { name: 'Recurring gifts' });
  await expect(section.getByText('No recurring gift for this subscriber.')).toBeVisible();

  await test.step('add a recurring gift', async () => {
    await section.getByRole('button', { name: 'Add a recurring gift' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a recurring gift' });
    await dialog.getByRole('textbox', { name: /Amount/ }).fill('25,5');
    await dialog.getByRole('combobox', { name: 'Frequency' }).selectOption('quarterly');
    await dialog.getByRole('combobox', { name: /Day of the month/ }).selectOption('12');
    const from = dialog.getByRole('textbox', { name: 'From' });
    await from.fill('12/01/2026');
    await from.press('Tab');
    await expect(from).toHaveValue('12/01/2026');
    await expect(dialog.getByRole('combobox', { name: /Mandate/ })).toHaveValue(/\d+/);
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, 'The recurring gift of 25,50 € was added.');
    const row = section.getByRole('row').nth(1);
    await expect(row.getByRole('cell', { name: '25,50 €', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Quarterly', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: '12/01/2026', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: rum, exact: true })).toBeVisible();
    await expect(row.getByText('Active')).toBeVisible();
  });

  await test.step('pause it with the keyboard', async () => {
    await section.getByRole('button', { name: 'Pause the gift of 25,50 € quarterly' }).focus();
    await page.keyboard.press('Enter');
    await expectSuccessToast(page, 'The recurring gift of 25,50 € quarterly was paused.');
    await expect(section.getByRole('row').nth(1).getByText('Paused')).toBeVisible();
  });

  await test.step('the section at 375 px, and axe', async () => {
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await page.setViewportSize(PHONE);
    await section.scrollIntoViewIfNeeded();
    await expectFitsPhone(page, 'subscriber-with-plans');
    await expectNoAxeViolations(page, { include: 'section[aria-labelledby="plans-heading"]' });
  });
});
