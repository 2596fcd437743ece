import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expectAccessible, expectFitsPhone, PHONE } from '../fixtures/accessibility.ts';
import { createProductThroughApi, listReferenceItemsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { orgToday } from '../fixtures/dates.ts';
import { createDonationThroughApi } from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { type ApiSubscriberRecord, seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { signInThroughUi } from '../fixtures/ui.ts';

/**
 * Accessible and usable on a phone, on every screen of the router (part 1 §2 Screens and routes;
 * part 2 §2): an axe scan (WCAG 2 A and AA) of each screen and each dialog finds nothing critical or
 * serious; the dialogs, menus and the search filter toggle work with the keyboard alone; at 375 × 812
 * no screen scrolls sideways (screenshots kept as e2e/.tmp/screenshots/phone-<screen>.png).
 */

/** What the screens show: one subscriber with a donation, a sale and a product of their own. */
type Seeded = {
  subscriber: ApiSubscriberRecord;
  product: { id: number; name: string };
  saleId: number;
};

// The scans are independent: they run on both workers. Each worker seeds its own data once.
test.describe.configure({ mode: 'parallel' });

let seeded: Seeded | undefined;

/** Time allowed to a test that scans many screens (each axe scan takes seconds). */
const SLOW_TEST_MS = 15 * 60_000;

/** Seeds once per worker: a subscriber with a long address, a donation, a product and an invoiced sale. */
async function seed(request: APIRequestContext, token: string): Promise<Seeded> {
  if (seeded) return seeded;
  const currencies = await listReferenceItemsThroughApi(request, token, '/api/currencies');
  const countries = await listReferenceItemsThroughApi(request, token, '/api/ctries');
  const euro = currencies.find((currency) => currency.symbol === '€');
  const france = countries.find((country) => country.name.toLowerCase().includes('france')) ?? countries[0];
  if (!euro || !france) throw new Error('The reference data has no euro currency or no country');
  const subscriber = await seedSubscriberThroughApi(request, token, {
    title: 'M.',
    firstName: 'Émile',
    lastName: uniqueName('Accessible'),
    email: `a11y-${Date.now()}@example.org`,
    currencyId: euro.id,
    countryId: france.id,
    address1: '12 avenue du Maréchal de Lattre de Tassigny, bâtiment B',
    town: 'Villefranche-sur-Saône',
    postcode: '69400',
  });
  await createDonationThroughApi(request, token, {
    subid: subscriber.id,
    amount: 1234.56,
    donationDate: orgToday(),
    notes: 'Don de soutien',
  });
  const product = await createProductThroughApi(request, token, {
    name: uniqueName('Agenda accessible'),
    euroPrice: 12.5,
    swissPrice: 14,
    currentStock: 20,
    minStockAlert: 2,
  });
  const response = await request.post('/api/sales', {
    headers: bearer(token),
    data: {
      subscriberId: subscriber.id,
      fullName: `${subscriber.firstName} ${subscriber.lastName}`,
      currencySymbol: '€',
      addr1: subscriber.address1,
      town: subscriber.town,
      postcode: subscriber.postcode,
      country: france.name,
      items: [{ productId: product.id, quantity: 2, euroUnitPrice: 12.5, swissUnitPrice: 14 }],
    },
  });
  await expectOk(response, 'POST /api/sales');
  const sale = (await response.json()) as { id: number };
  // The invoice handed out: the sale can then only be cancelled (its Cancel sale dialog).
  await expectOk(await request.get(`/api/sales/receipt/${sale.id}`, { headers: bearer(token) }), 'invoice');
  seeded = { subscriber, product: { id: product.id, name: product.name }, saleId: sale.id };
  return seeded;
}

/** One screen of the router: its name (screenshots), how to open it and, when needed, what to do then. */
type Screen = {
  name: string;
  path: (data: Seeded) => string;
  /** Brings the screen into the state worth checking (e.g. runs a search so the table shows). */
  prepare?: (page: Page, data: Seeded) => Promise<void>;
};

function subscriberQuery({ subscriber }: Seeded): string {
  return new URLSearchParams({
    subid: String(subscriber.id),
    fn: subscriber.firstName,
    ln: subscriber.lastName,
    sy: '€',
  }).toString();
}

/**
 * Fills Last Name in the search panel `panel` (its accessible name: `Search sales`, `Search donations`,
 * so that nothing is typed into the previous screen's) and runs the search, then waits for the table.
 */
async function searchByLastName(page: Page, data: Seeded, table: string, panel: string) {
  const form = page.getByRole('search', { name: panel });
  await form.getByLabel('Last Name').fill(data.subscriber.lastName);
  await form.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('table', { name: table })).toBeVisible();
}

/** The public screens (signed out). */
const PUBLIC_SCREENS: Screen[] = [
  { name: 'login', path: () => '/#/login' },
  { name: 'password-reset', path: () => '/#/password-reset' },
  { name: 'password-reset-confirm', path: () => '/#/password-reset/confirm?token=not-a-real-token' },
];

/** Every signed-in screen of apps/web's router (app/router.tsx), an Administrator's view. */
const SCREENS: Screen[] = [
  { name: 'dashboard', path: () => '/#/home' },
  { name: 'unauthorized', path: () => '/#/unauthorized' },
  { name: 'password', path: () => '/#/password' },
  {
    name: 'products',
    path: () => '/#/products',
    // Its rows fade in once the list comes: scanned mid-fade on a busy machine, they were too pale.
    prepare: async (page, data) => {
      await expect(rowWith(page, data.product.name)).toBeVisible();
    },
  },
  { name: 'subscription-types', path: () => '/#/subs' },
  { name: 'categories', path: () => '/#/categories' },
  { name: 'countries', path: () => '/#/countries' },
  { name: 'payment-methods', path: () => '/#/payment-methods' },
  { name: 'currencies', path: () => '/#/currencies' },
  { name: 'tags', path: () => '/#/tags' },
  {
    name: 'subscribers',
    path: () => '/#/subscribers',
    prepare: (page, data) => searchByLastName(page, data, 'Subscribers', 'Search filters'),
  },
  { name: 'subscriber', path: ({ subscriber }) => `/#/subscriber/${subscriber.id}` },
  { name: 'subscriber-new', path: () => '/#/subscriber/new' },
  { name: 'subscriber-history', path: ({ subscriber }) => `/#/subscriber/${subscriber.id}/history` },
  {
    name: 'donations',
    path: () => '/#/donations',
    prepare: (page, data) => searchByLastName(page, data, 'Donations', 'Search donations'),
  },
  {
    name: 'subscriber-donations',
    path: (data) => `/#/donations?${subscriberQuery(data)}`,
    prepare: async (page) => {
      await expect(page.getByRole('table', { name: 'Donations' })).toBeVisible();
    },
  },
  {
    name: 'sales',
    path: () => '/#/sales',
    prepare: (page, data) => searchByLastName(page, data, 'Sales', 'Search sales'),
  },
  {
    name: 'subscriber-sales',
    path: (data) => `/#/sales?${subscriberQuery(data)}`,
    prepare: async (page) => {
      await expect(page.getByRole('table', { name: 'Sales' })).toBeVisible();
    },
  },
  { name: 'new-sale', path: ({ subscriber }) => `/#/newsale/${subscriber.id}` },
  {
    name: 'users',
    path: () => '/#/users',
    prepare: async (page) => {
      await expect(rowWith(page, ADMIN.email)).toBeVisible();
    },
  },
  { name: 'settings', path: () => '/#/settings' },
  { name: 'annual-receipts', path: () => '/#/annual-receipts' },
  {
    name: 'audit',
    path: () => '/#/audit',
    prepare: async (page) => {
      await expect(page.getByRole('table').first()).toBeVisible();
    },
  },
  { name: 'jobs', path: () => '/#/jobs' },
];

/** Opens a screen and waits until it is drawn: its level-1 heading shown and no spinner left. */
async function openScreen(page: Page, screen: Screen, data: Seeded) {
  const target = screen.path(data);
  const route = target.slice(target.indexOf('#')).split('?')[0];
  // Gone to again until the screen is there: a hash change keeps the previous screen (and its heading)
  // drawn while the next one's code loads, and once the previous screen put its own address back.
  await expect(async () => {
    await page.goto(target);
    await expect(page).toHaveURL((url) => url.hash.split('?')[0] === route, { timeout: 5_000 });
    // The first visit loads the screen's code: slow on a busy machine.
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('Loading...', { exact: true })).toHaveCount(0);
    await screen.prepare?.(page, data);
  }).toPass({ timeout: 60_000 });
  await expect(page.getByLabel('Loading...', { exact: true })).toHaveCount(0);
}

/** Waits for a dialog's open transition to end, scans it, closes it with Escape and expects it gone. */
async function scanDialog(page: Page, dialog: Locator, name: string) {
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveCSS('opacity', '1');
  // Only the dialog: the screen under it has its own scan.
  await expectAccessible(page, `the dialog ${name}`, { include: '[role="dialog"]' });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/** Opens a menu, waits for its items, scans the page with it open and closes it with Escape. */
async function scanMenu(page: Page, button: Locator, name: string) {
  await button.click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu).toHaveCSS('opacity', '1');
  await expectAccessible(page, `the menu ${name}`, { include: '[role="menu"]' });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
}

function rowWith(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

test('the public screens have no serious accessibility violation and fit a phone', async ({ page }) => {
  test.setTimeout(SLOW_TEST_MS);
  for (const screen of PUBLIC_SCREENS) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openScreen(page, screen, {} as Seeded);
    await expectAccessible(page, screen.name);
    await expectFitsPhone(page, screen.name);
  }
});

test('every screen has no serious or critical accessibility violation', async ({
  page,
  request,
  adminToken,
}) => {
  // An axe scan takes seconds on a busy machine; two dozen screens need more than the default.
  test.setTimeout(SLOW_TEST_MS);
  const data = await seed(request, adminToken);
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  for (const screen of SCREENS) {
    await test.step(screen.name, async () => {
      await openScreen(page, screen, data);
      await expectAccessible(page, screen.name);
    });
  }
});

test('every dialog and menu has no serious or critical accessibility violation', async ({
  page,
  request,
  adminToken,
}) => {
  test.setTimeout(SLOW_TEST_MS);
  const data = await seed(request, adminToken);
  const screen = (name: string) => {
    const found = SCREENS.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`No screen ${name}`);
    return openScreen(page, found, data);
  };
  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('navigation menus', async () => {
    await scanMenu(page, page.getByRole('navigation').getByRole('button', { name: 'Admin' }), 'Admin');
    // The signed-in user's menu: the last button of the header, named after the user.
    await scanMenu(page, page.getByRole('banner').getByRole('button').last(), 'user');
  });

  await test.step('users', async () => {
    await screen('users');
    await page.getByRole('button', { name: 'Add New User' }).click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Add New User' }), 'Add New User');
    await rowWith(page, ADMIN.email).getByRole('button', { name: 'View' }).click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Edit User' }), 'Edit User');
  });

  await test.step('products', async () => {
    await screen('products');
    await page.getByRole('button', { name: 'Add New Product' }).click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Add New Product' }), 'Add New Product');
    const row = rowWith(page, data.product.name);
    await row.getByRole('button', { name: 'Edit' }).click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Edit Product' }), 'Edit Product');
    await row.getByRole('button', { name: /Stock/ }).click();
    await scanDialog(page, page.getByRole('dialog', { name: /Stock/ }), 'Stock');
  });

  await test.step('reference lists', async () => {
    await screen('tags');
    await page.getByRole('button', { name: 'Add New Tag' }).click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Add New Tag' }), 'Add New Tag');
    await screen('countries');
    await page.getByRole('row').nth(1).getByRole('button', { name: 'Edit' }).click();
    await scanDialog(page, page.getByRole('dialog'), 'Edit Country');
  });

  await test.step('subscribers', async () => {
    await screen('subscribers');
    await scanMenu(page, page.getByRole('button', { name: 'Export...' }), 'Export...');
    await page.getByRole('button', { name: 'Email Subscribers...' }).click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Email Subscribers' }), 'Email Subscribers');
  });

  await test.step('subscriber', async () => {
    await screen('subscriber');
    await scanMenu(page, page.getByRole('button', { name: 'Actions' }), 'Actions');
    await page.getByLabel('Town').fill('Lyon');
    await page.getByRole('button', { name: 'Actions' }).click();
    await page
      .getByRole('menuitem', { name: /Donations/ })
      .first()
      .click();
    const guard = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(guard).toBeVisible();
    await expect(guard).toHaveCSS('opacity', '1');
    await expectAccessible(page, 'the dialog Unsaved changes', { include: '[role="dialog"]' });
    await guard.getByRole('button', { name: 'Stay' }).click();
    await expect(guard).toBeHidden();
  });

  await test.step('donations', async () => {
    await screen('subscriber-donations');
    await page.getByRole('button', { name: 'Add New Donation' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Donation' });
    await expect(add).toBeVisible();
    // The date is typed or picked: clicking the field opens its calendar.
    await add.getByRole('textbox', { name: /Date/ }).first().click();
    await expect(page.getByRole('dialog').last()).toBeVisible();
    await expectAccessible(page, 'the date picker of Add New Donation', { include: '[role="dialog"]' });
    await add.getByRole('heading', { name: 'Add New Donation' }).click();
    await scanDialog(page, add, 'Add New Donation');
    await screen('donations');
    await scanMenu(page, page.getByRole('button', { name: 'Export', exact: true }), 'Export donations');
    await scanMenu(page, page.getByRole('button', { name: 'Receipt' }).first(), 'Receipt');
    await page.getByRole('checkbox').last().check();
    await page.getByRole('button', { name: 'Delete Selected Donations' }).click();
    await scanDialog(
      page,
      page.getByRole('dialog', { name: 'Delete Selected Donations' }),
      'Delete Selected Donations',
    );
  });

  await test.step('sales', async () => {
    await screen('sales');
    await scanMenu(page, page.getByRole('button', { name: 'Export', exact: true }), 'Export sales');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Export Sales Totals' }).click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Export Sales Totals' }), 'Export Sales Totals');
    await page.getByRole('button', { name: 'Email Subscribers...' }).click();
    await scanDialog(
      page,
      page.getByRole('dialog', { name: 'Email Subscribers' }),
      'Email Subscribers (sales)',
    );
    await page.getByRole('button', { name: 'Cancel sale' }).first().click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Cancel sale' }), 'Cancel sale');
  });

  await test.step('new sale', async () => {
    await screen('new-sale');
    // Opened again until the catalogue has arrived: a Select without options opens no list (once, on a
    // busy machine, the click came before the products).
    await expect(async () => {
      await page.getByRole('combobox', { name: 'Product' }).click();
      await expect(page.getByRole('option').first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('listbox')).toBeVisible();
    await expectAccessible(page, 'the product list of New Sale', { include: '[role="listbox"]' });
    await page.keyboard.press('Escape');
  });

  await test.step('annual receipts', async () => {
    await screen('annual-receipts');
    await page.getByRole('button', { name: 'Send annual receipts' }).click();
    await scanDialog(
      page,
      page.getByRole('dialog', { name: 'Send annual receipts' }),
      'Send annual receipts',
    );
  });

  await test.step('audit', async () => {
    await screen('audit');
    await page
      .getByRole('button', { name: /^Details of the change/ })
      .first()
      .click();
    await scanDialog(page, page.getByRole('dialog', { name: 'Change details' }), 'Change details');
  });
});

test('dialogs, menus and the search filters work with the keyboard alone', async ({
  page,
  request,
  adminToken,
}) => {
  const data = await seed(request, adminToken);
  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('a visible focus ring on the element reached with Tab', async () => {
    await page.goto('/#/users');
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    const add = page.getByRole('button', { name: 'Add New User' });
    await add.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(add).toBeFocused();
    const outline = await add.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
    });
    expect(outline.style).not.toBe('none');
    expect(outline.width).toBeGreaterThanOrEqual(2);
  });

  await test.step('a dialog opened with Enter traps Tab, closes with Escape and gives the focus back', async () => {
    const add = page.getByRole('button', { name: 'Add New User' });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add New User' });
    await expect(dialog).toBeVisible();
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(add).toBeFocused();
  });

  await test.step("a table row's actions are reached with Tab and work with Enter", async () => {
    const view = rowWith(page, ADMIN.email).getByRole('button', { name: 'View' });
    await view.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(view).toBeFocused();
  });

  await test.step('the Admin menu opens with Enter, moves with the arrows and closes with Escape', async () => {
    const admin = page.getByRole('navigation').getByRole('button', { name: 'Admin' });
    await admin.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem').nth(1)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(admin).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Users' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#\/users$/);
  });

  await test.step('the search filter toggle slides the filters with the keyboard', async () => {
    await page.goto('/#/subscribers');
    const toggle = page.getByRole('button', { name: 'Show or hide the search filters' });
    const filters = page.getByRole('search', { name: 'Subscriber search filters' });
    await expect(filters).toBeVisible();
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(filters).toBeHidden();
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(filters).toBeVisible();
    await filters.getByLabel('Last Name').focus();
    await page.keyboard.type(data.subscriber.lastName);
    await page.keyboard.press('Enter');
    await expect(rowWith(page, data.subscriber.lastName)).toBeVisible();
  });
});

test('every screen fits a 375 px wide phone without scrolling sideways', async ({
  page,
  request,
  adminToken,
}) => {
  test.setTimeout(SLOW_TEST_MS);
  const data = await seed(request, adminToken);
  await page.setViewportSize(PHONE);
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  for (const screen of SCREENS) {
    await test.step(screen.name, async () => {
      await openScreen(page, screen, data);
      await expectFitsPhone(page, screen.name);
    });
  }
});
