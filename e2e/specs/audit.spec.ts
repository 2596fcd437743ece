import type { Locator, Page } from '@playwright/test';
import { createProductThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** The audit trail: changes are recorded with who, when, before and after, and read by Administrators. */

function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(text, { exact: true }) });
}

test('an Administrator renames a product and finds the change, before and after, on the Audit screen', async ({
  page,
  request,
  adminToken,
}) => {
  const name = uniqueName('Agenda audit');
  const renamed = `${name} (renommé)`;
  await createProductThroughApi(request, adminToken, { name, euroPrice: 12.5, swissPrice: 14 });

  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('rename the product in the Edit Product dialog', async () => {
    await openFromAdminMenu(page, 'Products');
    await row(page, name).getByRole('button', { name: 'Edit' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Product' });
    await modal.getByLabel('Name').fill(renamed);
    await modal.getByRole('button', { name: 'Update' }).click();
    await expectSuccessToast(page, `Product '${renamed}' was updated successfully!`);
  });

  await test.step('Admin → Audit lists the change first, with who, when and the name before and after', async () => {
    await openFromAdminMenu(page, 'Audit');
    const table = page.getByRole('table', { name: 'Audit events' });
    const first = table.getByRole('row').nth(1);
    await expect(first).toContainText(renamed);
    await expect(first).toContainText('Administrator');
    await expect(first).toContainText('Updated');
    await expect(first).toContainText('Product');
    await expect(first).toContainText(`Name: ${name} → ${renamed}`);
    await expect(first).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    // The creation through the API is there too, as the Administrator's, with the values it was given.
    const creation = table.getByRole('row').filter({ hasText: `Name: ${name}; Price (Euro): 12,50` });
    await expect(creation).toHaveCount(1);
    await expect(creation).toContainText('Created');
    await screenshot(page, 'audit-list');

    await first.getByRole('button', { name: `Details of the change to ${renamed}` }).click();
    const details = page.getByRole('dialog', { name: 'Change details' });
    const nameRow = details.getByRole('row').filter({ hasText: 'Name' });
    await expect(nameRow.getByRole('cell')).toHaveText(['Name', name, renamed]);
    await screenshot(page, 'audit-details');
    await details.getByRole('button', { name: 'Close' }).last().click();
    await expect(details).toBeHidden();
  });

  await test.step('the filters narrow the list to the kind of record chosen', async () => {
    await page.getByRole('combobox', { name: 'Record' }).click();
    await page.getByRole('option', { name: 'User', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const table = page.getByRole('table', { name: 'Audit events' });
    await expect(table.getByText(renamed)).toBeHidden();
    await expect(table.getByRole('row').nth(1)).toContainText('User');
    await screenshot(page, 'audit-users-only');
  });
});
