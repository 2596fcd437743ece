import type { Locator, Page } from '@playwright/test';
import { listReferenceItemsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  expectErrorToast,
  expectSuccessToast,
  openFromAdminMenu,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/**
 * The six reference lists (part 1 §2 Reference-data lists, §4, §5, §7 Reference data, §8): add, edit
 * and remove in each, with every heading, button, title and placeholder of the spec.
 * A country still used by a subscriber cannot be deleted: the toast gives the server's reason.
 */

type ListCase = {
  heading: string;
  /** Countries: some 250 rows, so the screenshots keep to the viewport. */
  long?: boolean;
  slug: string;
  apiPath: string;
  add: string;
  edit: string;
  placeholder: string;
  singular: string;
  namePrefix: string;
  /** Currencies only: a symbol, and rows read `name (symbol)`. */
  symbol?: string;
};

const LISTS: ListCase[] = [
  {
    heading: 'Subscription Types',
    slug: 'subs',
    apiPath: '/api/subs',
    add: 'Add New Subscription Type',
    edit: 'Edit Subscription Type',
    placeholder: 'Subscription type name.',
    singular: 'subscription type',
    namePrefix: 'Abonnement',
  },
  {
    heading: 'Categories',
    slug: 'categories',
    apiPath: '/api/cats',
    add: 'Add New Category',
    edit: 'Edit Category',
    placeholder: 'Category name.',
    singular: 'category',
    namePrefix: 'Bienfaiteur',
  },
  {
    heading: 'Countries',
    long: true,
    slug: 'countries',
    apiPath: '/api/ctries',
    add: 'Add New Country',
    edit: 'Edit Country',
    placeholder: 'Country name.',
    singular: 'country',
    namePrefix: 'Ô',
  },
  {
    heading: 'Payment Methods',
    slug: 'payment-methods',
    apiPath: '/api/pmethods',
    add: 'Add New Payment Method',
    edit: 'Edit Payment Method',
    placeholder: 'Payment method name.',
    singular: 'payment method',
    namePrefix: 'Mandat cash',
  },
  {
    heading: 'Currencies',
    slug: 'currencies',
    apiPath: '/api/currencies',
    add: 'Add New Currency',
    edit: 'Edit Currency',
    placeholder: 'Currency name.',
    singular: 'currency',
    namePrefix: 'Livre sterling',
    symbol: '£',
  },
  {
    heading: 'Tags',
    slug: 'tags',
    apiPath: '/api/tags',
    add: 'Add New Tag',
    edit: 'Edit Tag',
    placeholder: 'Tag name.',
    singular: 'tag',
    namePrefix: 'vip',
  },
];

/** What a row shows: the name, or `name (symbol)` for currencies. */
function rowLabel(list: ListCase, name: string): string {
  return list.symbol ? `${name} (${list.symbol})` : name;
}

function itemRow(page: Page, label: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
}

for (const list of LISTS) {
  test(`${list.heading}: add, edit and remove an item`, async ({ page, request, adminToken }) => {
    const name = uniqueName(list.namePrefix);
    const renamed = `${name} bis`;

    await signInThroughUi(page, ADMIN.email, ADMIN.password);
    await openFromAdminMenu(page, list.heading);
    await expect(page).toHaveURL(new RegExp(`#/${list.slug}$`));
    await screenshot(page, `reference-${list.slug}-list`, { fullPage: !list.long });

    await test.step(`"${list.add}" checks the form, then creates the item`, async () => {
      await page.getByRole('button', { name: list.add }).click();
      const dialog = page.getByRole('dialog', { name: list.add });
      await expect(dialog.getByPlaceholder(list.placeholder)).toBeFocused();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Please complete all the information!')).toBeVisible();
      await expect(dialog.getByText('Name is required')).toBeVisible();
      if (list.symbol) {
        await expect(dialog.getByPlaceholder('Currency symbol.')).toBeVisible();
        await expect(dialog.getByText('Symbol is required')).toBeVisible();
      }
      await dialog.getByLabel('Name').fill(name);
      if (list.symbol) await dialog.getByLabel('Symbol').fill(list.symbol);
      await screenshot(page, `reference-${list.slug}-add-dialog`, { fullPage: !list.long });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expectSuccessToast(page, `Item '${name}' was created successfully!`);
      await expect(dialog).toBeHidden();
      await expect(itemRow(page, rowLabel(list, name))).toBeVisible();
      if (list.apiPath === '/api/ctries') {
        // part 1 §4: a new or edited country always carries order 100.
        const items = await listReferenceItemsThroughApi(request, adminToken, list.apiPath);
        expect(items.find((item) => item.name === name)?.order).toBe(100);
      }
    });

    await test.step('a name already in the list is refused under Name, the dialog stays open', async () => {
      await page.getByRole('button', { name: list.add }).click();
      const dialog = page.getByRole('dialog', { name: list.add });
      await dialog.getByLabel('Name').fill(name.toUpperCase());
      if (list.symbol) await dialog.getByLabel('Symbol').fill(list.symbol);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(
        dialog.getByText(`A ${list.singular} with this name already exists.`, { exact: true }),
      ).toBeVisible();
      await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });

    await test.step(`"${list.edit}" puts the cursor at the end of the name and updates it`, async () => {
      await itemRow(page, rowLabel(list, name)).getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: list.edit });
      const nameInput = dialog.getByLabel('Name');
      await expect(nameInput).toHaveValue(name);
      await expect(nameInput).toBeFocused();
      await expect
        .poll(() =>
          nameInput.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd]),
        )
        .toEqual([name.length, name.length]);
      await nameInput.pressSequentially(' bis');
      await screenshot(page, `reference-${list.slug}-edit-dialog`, { fullPage: !list.long });
      await dialog.getByRole('button', { name: 'Update' }).click();
      await expectSuccessToast(page, `Item '${renamed}' was updated successfully!`);
      await expect(dialog).toBeHidden();
      await expect(itemRow(page, rowLabel(list, renamed))).toBeVisible();
      await expect(itemRow(page, rowLabel(list, name))).toHaveCount(0);
    });

    await test.step('the close icon closes the dialog without saving', async () => {
      await itemRow(page, rowLabel(list, renamed)).getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: list.edit });
      await dialog.getByLabel('Name').fill('Never saved');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      await expect(itemRow(page, rowLabel(list, renamed))).toBeVisible();
    });

    await test.step('Remove asks for confirmation, then deletes', async () => {
      const row = itemRow(page, rowLabel(list, renamed));
      await row.getByRole('button', { name: 'Remove' }).click();
      await expect(row.getByRole('button', { name: 'CONFIRM DELETE' })).toBeVisible();
      await row.getByRole('button', { name: 'Cancel' }).click();
      await row.getByRole('button', { name: 'Remove' }).click();
      await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
      await expectSuccessToast(page, `Item '${renamed}' was deleted successfully!`);
      await expect(itemRow(page, rowLabel(list, renamed))).toHaveCount(0);
      const items = await listReferenceItemsThroughApi(request, adminToken, list.apiPath);
      expect(items.map((item) => item.name)).not.toContain(renamed);
    });
  });
}

test('a country still used by a subscriber cannot be deleted, and the toast says why', async ({
  page,
  request,
  adminToken,
}) => {
  const headers = { authorization: `Bearer ${adminToken}` };
  const name = uniqueName('Atlantide');
  const country = await request.post('/api/ctries', { headers, data: { name } });
  expect(country.status()).toBe(201);
  const { id } = (await country.json()) as { id: number };
  const subscriber = await request.post('/api/subscribers', {
    headers,
    data: { firstName: 'Zoé', lastName: 'Martin', currencyId: 1, countryId: id },
  });
  expect(subscriber.status()).toBe(201);

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Countries');
  const row = itemRow(page, name);
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
  await expectErrorToast(
    page,
    `Houston - there was a problem deleting a country. The country '${name}' is used by 1 subscriber and cannot be deleted. Please try again or contact your system administrator.`,
  );
  await screenshot(page, 'reference-countries-in-use', { fullPage: false });
  await expect(itemRow(page, name)).toBeVisible();
  const items = await listReferenceItemsThroughApi(request, adminToken, '/api/ctries');
  expect(items.map((item) => item.name)).toContain(name);
});

test('tags are listed by name whatever their case, as the server sorts them', async ({ page }) => {
  const stem = uniqueName('zz');
  const names = [`${stem} Banane`, `${stem} abricot`, `${stem} Cerise`];

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Tags');
  for (const name of names) {
    await page.getByRole('button', { name: 'Add New Tag' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Tag' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(itemRow(page, name)).toBeVisible();
  }
  const shown = await page.getByRole('row').allTextContents();
  const ours = shown.map((text) => text.replace(/EditRemove$/, '')).filter((text) => text.startsWith(stem));
  expect(ours).toEqual([`${stem} abricot`, `${stem} Banane`, `${stem} Cerise`]);
  await screenshot(page, 'reference-tags-sorted');
});
