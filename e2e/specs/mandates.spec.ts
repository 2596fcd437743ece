/**
 * SEPA mandates (not in the spec; docs/decisions/027): on a subscriber's screen, staff add a mandate
 * (typed the French way: date dd/mm/yyyy, IBAN with spaces), see it listed with its IBAN in groups of 4
 * and on the record's RUM, revoke it with a reason, and find the section accessible and usable at 375 px.
 */
import { randomUUID } from 'node:crypto';
import { expectFitsPhone, expectNoAxeViolations, PHONE } from '../fixtures/accessibility.ts';
import { ADMIN } from '../fixtures/env.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, screenshot, signInThroughUi } from '../fixtures/ui.ts';

test('staff add a mandate to a subscriber and revoke it', async ({ page, request, adminToken }) => {
  // Specs share one database: a reference of this run only.
  const rum = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
  const subscriber = await seedSubscriberThroughApi(request, adminToken, {
    firstName: 'Maëlle',
    lastName: `Mandat-${rum}`,
    currencyId: 1,
  });
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto(`/#/subscriber/${subscriber.id}`);
  const section = page.getByRole('region', { name: 'Mandates' });
  await expect(section.getByText('No SEPA mandate for this subscriber.')).toBeVisible();

  await test.step('add a mandate', async () => {
    await section.getByRole('button', { name: 'Add a mandate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a mandate' });
    await dialog.getByRole('textbox', { name: /RUM/ }).fill(rum);
    await dialog.getByRole('textbox', { name: 'IBAN' }).fill('fr76 3000 6000 0112 3456 7890 189');
    await dialog.getByRole('textbox', { name: 'BIC' }).fill('bnpafrpp');
    const signedOn = dialog.getByRole('textbox', { name: 'Signed on' });
    await signedOn.fill('15/01/2025');
    await signedOn.press('Tab');
    await expect(signedOn).toHaveValue('15/01/2025');
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, `The mandate ${rum} was added.`);
    const card = section.getByRole('listitem', { name: `Mandate ${rum}` });
    await expect(card.getByText('FR76 3000 6000 0112 3456 7890 189 · BIC BNPAFRPP')).toBeVisible();
    await expect(card.getByText('Recurring · signed on 15/01/2025')).toBeVisible();
    await expect(card.getByText('Active')).toBeVisible();
    // The record shows the current mandate.
    await expect(page.getByRole('textbox', { name: 'RUM', exact: true })).toHaveValue(rum);
  });

  await test.step('the section at 375 px, and axe', async () => {
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await page.setViewportSize(PHONE);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-mandates-section', { fullPage: false });
    await expectFitsPhone(page, 'subscriber-with-mandates');
    await expectNoAxeViolations(page, { include: 'section[aria-labelledby="mandates-heading"]' });
  });

  await test.step('revoke it with the keyboard', async () => {
    await section.getByRole('button', { name: `Revoke mandate ${rum}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke the mandate' });
    await expect(dialog.getByRole('textbox', { name: /Reason/ })).toBeFocused();
    await page.keyboard.type('Debtor asked by letter');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expectSuccessToast(page, `The mandate ${rum} was revoked.`);
    const card = section.getByRole('listitem', { name: `Mandate ${rum}` });
    await expect(card.getByText('Revoked', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Revoked on \d{2}\/\d{2}\/\d{4}: Debtor asked by letter$/)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'RUM', exact: true })).toHaveValue('');
  });
});
