import type { Locator, Page } from '@playwright/test';
import { loginThroughApi, uniqueEmail } from '../fixtures/api.ts';
import { ADMIN, BASE_URL } from '../fixtures/env.ts';
import { emailsSoFar, waitForPasswordEmail } from '../fixtures/mail.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, screenshot, setPasswordThroughLink, signInThroughUi } from '../fixtures/ui.ts';

/** Staff accounts (part 1 §2 Users, §4 Row delete and Modal, §6 Roles, §8 toasts). */

/** The row of the Users list that shows this email (rendered as "(email)"). */
function userRow(page: Page, email: string): Locator {
  return page.getByRole('row').filter({ hasText: email });
}

async function openUsers(page: Page) {
  await page.getByRole('navigation').getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('menuitem', { name: 'Users' }).click();
  await expect(page).toHaveURL(/#\/users$/);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
}

test('an administrator adds, edits and removes staff accounts', async ({ page, seedUser }) => {
  const toRemove = await seedUser({ fullName: 'Remove Me Please' });
  const email = uniqueEmail('e2e-edited');

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openUsers(page);
  await expect(userRow(page, ADMIN.email).getByRole('button', { name: 'View' })).toBeVisible();
  await expect(userRow(page, ADMIN.email).getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await screenshot(page, 'users-list');

  await test.step('add through the modal', async () => {
    await page.getByRole('button', { name: 'Add New User' }).click();
    const modal = page.getByRole('dialog', { name: 'Add New User' });
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText('Please complete all the information!')).toBeVisible();
    await modal.getByLabel('Full name').fill('Edith Before');
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Role', { exact: true }).click();
    await page.getByRole('option', { name: 'User', exact: true }).click();
    await screenshot(page, 'users-add-modal');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, "User 'Edith Before' was created successfully!");
    await expect(modal).toBeHidden();
    await expect(userRow(page, email)).toContainText('Edith Before');
  });

  await test.step('edit through the modal', async () => {
    await userRow(page, email).getByRole('button', { name: 'View' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit User' });
    await expect(modal.getByLabel('Full name')).toHaveValue('Edith Before');
    await modal.getByLabel('Full name').fill('Edith After');
    await screenshot(page, 'users-edit-modal');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, "User 'Edith After' was updated successfully!");
    await expect(modal).toBeHidden();
    await expect(userRow(page, email)).toContainText('Edith After');
  });

  await test.step('remove with the two-step confirmation', async () => {
    const row = userRow(page, toRemove.email);
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await expect(row.getByRole('button', { name: 'Remove' })).toBeVisible();

    await row.getByRole('button', { name: 'Remove' }).click();
    await screenshot(page, 'users-confirm-delete');
    await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
    await expectSuccessToast(page, `User '${toRemove.fullName}' was deleted successfully!`);
    await expect(userRow(page, toRemove.email)).toHaveCount(0);
  });
});

test('a new staff member sets a password from the email, signs in, and cannot reach Users', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('e2e-staff');
  const password = 'Staff-Member-Passw0rd!';
  let emailsBefore = new Set<string>();

  await test.step('the administrator creates the account', async () => {
    await signInThroughUi(page, ADMIN.email, ADMIN.password);
    await openUsers(page);
    emailsBefore = await emailsSoFar();
    await page.getByRole('button', { name: 'Add New User' }).click();
    const modal = page.getByRole('dialog', { name: 'Add New User' });
    await modal.getByLabel('Full name').fill('Sam Staff');
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Role', { exact: true }).click();
    await page.getByRole('option', { name: 'User', exact: true }).click();
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, "User 'Sam Staff' was created successfully!");
  });

  const context = await browser.newContext({ baseURL: BASE_URL });
  const staffPage = await context.newPage();

  await test.step('the set-password email is captured and its link sets the password', async () => {
    const mail = await waitForPasswordEmail(email, { ignore: emailsBefore });
    await setPasswordThroughLink(staffPage, mail.link, password, 'set-password-new-account');
  });

  await test.step('the staff member signs in and does not see Users', async () => {
    await signInThroughUi(staffPage, email, password);
    await staffPage.getByRole('navigation').getByRole('button', { name: 'Admin' }).click();
    await expect(staffPage.getByRole('menuitem', { name: 'Products' })).toBeVisible();
    await expect(staffPage.getByRole('menuitem', { name: 'Users' })).toHaveCount(0);
    await expect(staffPage.getByRole('menu')).toHaveCSS('opacity', '1');
    await screenshot(staffPage, 'user-role-admin-menu');
    await staffPage.keyboard.press('Escape');
  });

  await test.step('#/users does not show the Users screen', async () => {
    await staffPage.goto('/#/users');
    await expect(staffPage).toHaveURL(/#\/(unauthorized|home)$/);
    await expect(staffPage.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(staffPage.getByRole('heading', { name: 'Users' })).toHaveCount(0);
    await expect(staffPage.getByRole('button', { name: 'Add New User' })).toHaveCount(0);
    await screenshot(staffPage, 'user-role-unauthorized');
  });

  await test.step('GET /api/users answers 403 to their token', async () => {
    const token = await loginThroughApi(context.request, email, password);
    const response = await context.request.get('/api/users', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(403);
  });

  await context.close();
});
