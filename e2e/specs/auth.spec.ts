import { ADMIN, BASE_URL } from '../fixtures/env.ts';
import { emailsSoFar, waitForPasswordEmail } from '../fixtures/mail.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  expectSuccessToast,
  screenshot,
  setPasswordThroughLink,
  signInThroughUi,
  signOutThroughUi,
} from '../fixtures/ui.ts';

/** Sign-in, sign-out, session expiry and password reset (part 1 §2 Login, §4 Session, §8). */

const LOGIN_FAILURE = 'Ooops! Try a different username or password and login again.';

/** A copy of a JWT whose `exp` lies in the past (the signature no longer matches; the client does not check it). */
function expiredCopyOf(token: string): string {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || signature === undefined) throw new Error('the id token is not a JWT');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const expired = { ...claims, exp: Math.floor(Date.now() / 1000) - 60 };
  return [header, Buffer.from(JSON.stringify(expired)).toString('base64url'), signature].join('.');
}

test('an unauthenticated visitor is sent to Login, and signing in lands on the Dashboard', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgotten password?' })).toBeVisible();
  await screenshot(page, 'login');

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  const nav = page.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Admin' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Subscribers' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Donations' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sales' })).toBeVisible();
  await screenshot(page, 'home-dashboard');
});

test('a wrong password shows the failure alert and stays on Login', async ({ page }) => {
  await page.goto('/#/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill('not-the-right-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText(LOGIN_FAILURE)).toBeVisible();
  await expect(page).toHaveURL(/#\/login$/);
  await screenshot(page, 'login-failure');
});

test('Logout in the user menu ends the session', async ({ page, seedUser }) => {
  const user = await seedUser({ fullName: 'Sign Out Tester' });
  await signInThroughUi(page, user.email, user.password);
  await signOutThroughUi(page, user.fullName);
  expect(await page.evaluate(() => localStorage.getItem('id_token'))).toBeNull();

  await page.goto('/#/home');
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
});

test('an expired id token sends the app back to Login within the 10-second check', async ({
  page,
  seedUser,
}) => {
  const user = await seedUser({ fullName: 'Expiry Tester' });
  await signInThroughUi(page, user.email, user.password);

  const token = await page.evaluate(() => localStorage.getItem('id_token'));
  expect(token).toBeTruthy();
  await page.evaluate((expired) => localStorage.setItem('id_token', expired), expiredCopyOf(token ?? ''));

  // No navigation: only the periodic check (every 10 s) can notice; allow a little slack.
  await expect(page).toHaveURL(/#\/login$/, { timeout: 13_000 });
  expect(await page.evaluate(() => localStorage.getItem('id_token'))).toBeNull();
  await screenshot(page, 'login-after-expiry');
});

test('a session whose token expires while the page is open ends at the next check', async ({
  page,
  seedUser,
}) => {
  const user = await seedUser({ fullName: 'Clock Tester' });
  await page.clock.install();
  await signInThroughUi(page, user.email, user.password);

  // The real token lives an hour (TOKEN_TTL_SECONDS); move the page's clock past it.
  await page.clock.fastForward('02:00:00');
  await expect(page).toHaveURL(/#\/login$/, { timeout: 12_000 });
});

test('a forgotten password is reset through the emailed link', async ({ page, request, seedUser }) => {
  const user = await seedUser({ fullName: 'Reset Tester' });
  const newPassword = 'Brand-New-Passw0rd!';

  await page.goto('/#/login');
  await page.getByRole('link', { name: 'Forgotten password?' }).click();
  await expect(page).toHaveURL(/#\/password-reset$/);
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await screenshot(page, 'password-reset-request');

  const before = await emailsSoFar();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send Password Reset Email' }).click();
  await expectSuccessToast(page, 'Please check your email for a password reset link!');

  const mail = await waitForPasswordEmail(user.email, { ignore: before });
  expect(mail.link).toMatch(new RegExp(`^${BASE_URL}/#/password-reset/confirm\\?token=`));

  await setPasswordThroughLink(page, mail.link, newPassword, 'password-reset-confirm');

  const oldPassword = await request.post('/auth/login', {
    data: { email: user.email, password: user.password },
  });
  expect(oldPassword.status()).toBe(401);

  await signInThroughUi(page, user.email, newPassword);
});

test('changing one’s own password asks for the current one first', async ({ page, request, seedUser }) => {
  const user = await seedUser({ fullName: 'Careful Changer' });
  const newPassword = 'Changed-Passw0rd-2!';
  await signInThroughUi(page, user.email, user.password);
  await page.goto('/#/password');
  await expect(page.getByRole('heading', { name: 'Change Your Password' })).toBeVisible();

  await page.getByLabel('Current Password').fill('not-my-password-at-all');
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Update Password' }).click();
  // Under the field (the banner above the buttons names it too).
  await expect(page.getByText('Your current password is wrong.', { exact: true })).toBeVisible();
  await screenshot(page, 'change-password-wrong-current');

  await page.getByLabel('Current Password').fill(user.password);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expectSuccessToast(page, 'Your password was updated successfully. Good job!');
  await expect(page.getByLabel('Current Password')).toHaveValue('');

  const old = await request.post('/auth/login', { data: { email: user.email, password: user.password } });
  expect(old.status()).toBe(401);
  const changed = await request.post('/auth/login', { data: { email: user.email, password: newPassword } });
  expect(changed.status()).toBe(200);
});
