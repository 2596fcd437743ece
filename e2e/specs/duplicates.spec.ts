/**
 * Duplicates and merge (not in the spec): two look-alike subscribers (same name and email, a donation
 * each) are seeded through the API; writing a third one in the form shows the duplicate warning; the
 * scan of the Duplicates screen finds the pair; the Merge screen merges them, taking the town of the
 * other record; the kept record shows it and both donations; Undo in the toast puts both back.
 */
import { expectNoAxeViolations } from '../fixtures/accessibility.ts';
import { euroThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { orgToday } from '../fixtures/dates.ts';
import { createDonationThroughApi } from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { getSubscriberThroughApi, seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** Letters only, so that the stamp reads and searches like a name. */
function stamp(): string {
  return uniqueName('')
    .trim()
    .replace(/[^a-z]/gi, '')
    .slice(-6)
    .toLowerCase()
    .replace(/^./, (letter) => letter.toUpperCase());
}

test('an Administrator finds two look-alike subscribers, merges them, then undoes the merge', async ({
  page,
  request,
  adminToken,
}) => {
  test.setTimeout(180_000);
  const key = stamp();
  const lastName = `Doublon${key}`;
  const email = `claire.${key.toLowerCase()}@example.org`;

  const euro = await euroThroughApi(request, adminToken);
  const common = { firstName: 'Claire', lastName, email, postcode: '74000', currencyId: euro.id };
  const kept = await seedSubscriberThroughApi(request, adminToken, { ...common, town: 'Annecy' });
  const other = await seedSubscriberThroughApi(request, adminToken, {
    ...common,
    town: 'Annecy-le-Vieux',
    phone: '04 50 12 34 56',
  });
  await createDonationThroughApi(request, adminToken, {
    subid: kept.id,
    amount: 25,
    donationDate: orgToday(),
  });
  await createDonationThroughApi(request, adminToken, {
    subid: other.id,
    amount: 40,
    donationDate: orgToday(),
  });
  const keptName = `Claire ${lastName} (no. ${kept.id})`;
  const otherName = `Claire ${lastName} (no. ${other.id})`;

  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('writing a third look-alike shows the warning, which does not stop the save', async () => {
    await page.goto('/#/subscriber/new');
    await expect(page.getByRole('heading', { name: 'New Subscriber' })).toBeVisible();
    await page.getByLabel(/^First Name/).fill('Claire');
    await page.getByLabel(/^Last Name/).fill(lastName);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Email', { exact: true }).press('Tab');
    const warning = page.getByRole('alert').filter({ hasText: 'This person may already be in the register' });
    await expect(warning).toBeVisible();
    for (const [subscriber, name] of [
      [kept, keptName],
      [other, otherName],
    ] as const) {
      const link = warning.getByRole('link', { name: new RegExp(name.replace(/[()]/g, '\\$&')) });
      await expect(link).toHaveAttribute('href', `#/subscriber/${subscriber.id}`);
      await expect(link).toHaveAttribute('target', '_blank');
    }
    await expect(warning).toContainText('Same email');
    await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
    // The warning is at the top of the long form: the header's button brings it into view.
    await page.getByRole('button', { name: '2 possible duplicates' }).click();
    await expect(warning).toBeInViewport();
    await expect(warning).toBeFocused();
    await screenshot(page, 'duplicates-form-warning', { fullPage: false });
    await expectNoAxeViolations(page);

    // Not saved: leaving asks first.
    await page.getByRole('navigation').getByRole('button', { name: 'Admin' }).click();
    await page.getByRole('menuitem', { name: 'Duplicates', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Unsaved changes' })
      .getByRole('button', { name: 'Leave' })
      .click();
    await expect(page.getByRole('heading', { name: 'Duplicates', exact: true })).toBeVisible();
  });

  const pairRow = page
    .getByRole('table', { name: 'Likely duplicates' })
    .getByRole('row')
    .filter({ hasText: `(no. ${kept.id})` })
    .filter({ hasText: `(no. ${other.id})` });

  await test.step('the scan finds the pair', async () => {
    await page.getByRole('button', { name: 'Search for duplicates' }).click();
    await expect(pairRow).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('button', { name: 'Search for duplicates' })).toBeEnabled();
    await expect(page.getByText(/^Last search: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./)).toBeVisible();
    await expect(pairRow).toContainText(/\d+\s%/);
    await expect(pairRow).toContainText('Same email');
    await expect(
      pairRow.getByRole('link', { name: new RegExp(`no\\. ${kept.id}\\)`) }).first(),
    ).toHaveAttribute('href', `#/subscriber/${kept.id}`);
    await screenshot(page, 'duplicates-list');
    await expectNoAxeViolations(page);

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(pairRow).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'duplicates-list-375');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('the Merge screen compares the two and merges them, taking the other town', async () => {
    await pairRow.getByRole('link', { name: /^Merge…/ }).click();
    await expect(page.getByRole('heading', { name: 'Merge subscribers', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`#/duplicates/merge\\?keep=${kept.id}&merge=${other.id}$`));
    const town = page.getByRole('radiogroup', { name: 'Town' });
    await expect(town.getByRole('radio', { name: 'Annecy', exact: true })).toBeChecked();
    // The kept record has no phone: the other's is taken by default.
    await expect(
      page.getByRole('radiogroup', { name: 'Phone' }).getByRole('radio', { name: '04 50 12 34 56' }),
    ).toBeChecked();
    await town.getByText('Annecy-le-Vieux', { exact: true }).click();
    await expect(town.getByRole('radio', { name: 'Annecy-le-Vieux' })).toBeChecked();
    await expect(page.getByRole('region', { name: 'What the merge does' })).toContainText('Town, Phone');
    await screenshot(page, 'duplicates-merge');
    await expectNoAxeViolations(page);

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(town).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'duplicates-merge-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Merge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge these subscribers?' });
    await expect(dialog).toContainText('takes Town, Phone');
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`#/subscriber/${kept.id}$`));
    await expectSuccessToast(page, '1 donation');
    await expect(page.getByLabel('Town', { exact: true })).toHaveValue('Annecy-le-Vieux');
    await expect(page.getByLabel('Phone', { exact: true })).toHaveValue('04 50 12 34 56');
    await screenshot(page, 'duplicates-merged', { fullPage: false });
    // The merged id leads to the kept record.
    expect((await getSubscriberThroughApi(request, adminToken, other.id)).id).toBe(kept.id);
  });

  await test.step('the kept record has both donations', async () => {
    const query = new URLSearchParams({
      subid: String(kept.id),
      fn: 'Claire',
      ln: lastName,
      sy: euro.symbol ?? '€',
    });
    await page.goto(`/#/donations?${query.toString()}`);
    await expect(page.getByRole('heading', { name: `Donations for Claire ${lastName}` })).toBeVisible();
    const donations = page.getByRole('table', { name: 'Donations' });
    await expect(donations.getByRole('row').filter({ hasText: '25,00' })).toHaveCount(1);
    await expect(donations.getByRole('row').filter({ hasText: '40,00' })).toHaveCount(1);
  });

  await test.step('Undo in the toast puts both records back', async () => {
    const toast = page.getByRole('alert').filter({ hasText: 'was merged into' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expectSuccessToast(page, 'The merge was undone');
    await expect(page).toHaveURL(new RegExp(`#/duplicates/merge\\?keep=${kept.id}&merge=${other.id}$`));
    await expect(page.getByRole('radiogroup', { name: 'Town' })).toBeVisible();
    const back = await getSubscriberThroughApi(request, adminToken, other.id);
    expect(back.id).toBe(other.id);
    expect((await getSubscriberThroughApi(request, adminToken, kept.id)).town).toBe('Annecy');
    await screenshot(page, 'duplicates-undone');
  });
});
