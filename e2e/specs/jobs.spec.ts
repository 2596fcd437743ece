/**
 * The Jobs screen (docs/decisions/013): an Administrator sees the mail outbox and an annual receipt
 * run with its progress, and cancels the run part-way; the run then shows as cancelled.
 */
import { expectNoAxeViolations } from '../fixtures/accessibility.ts';
import { franceThroughApi } from '../fixtures/catalogue.ts';
import { createDonationThroughApi } from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** A year no other spec gives to: its annual run has only this spec's donors. */
const YEAR = 2019;
/**
 * Enough donors with an email that the run lasts several seconds (each gets a PDF and an email; about
 * 30 to 100 a second on a 2-core machine), so that it is cancelled part-way.
 */
const DONORS = 800;
/** Requests sent at once while seeding. */
const SEEDING_BATCH = 25;

test('an Administrator watches an annual run on the Jobs screen and cancels it part-way', async ({
  page,
  request,
  adminToken,
}) => {
  test.setTimeout(240_000);
  const family = `Jobs${Date.now()}`;
  const france = await franceThroughApi(request, adminToken);
  for (let first = 0; first < DONORS; first += SEEDING_BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(SEEDING_BATCH, DONORS - first) }, async (_, offset) => {
        const index = first + offset;
        const donor = await seedSubscriberThroughApi(request, adminToken, {
          firstName: 'Donateur',
          lastName: `${family} ${index}`,
          currencyId: 1,
          countryId: france.id,
          email: `${family.toLowerCase()}.${index}@example.org`,
        });
        await createDonationThroughApi(request, adminToken, {
          subid: donor.id,
          amount: 10,
          donationDate: `${YEAR}-06-01`,
        });
      }),
    );
  }

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Jobs');
  const started = await request.post('/api/donations/annual-runs', {
    data: { year: YEAR },
    headers: bearer(adminToken),
  });
  await expectOk(started, 'POST /api/donations/annual-runs');

  const outbox = page.getByRole('row').filter({ hasText: 'Mail outbox (1 of 2)' });
  await expect(outbox).toBeVisible();
  await expect(outbox.getByRole('button')).toHaveCount(0);

  const run = page.getByRole('row').filter({ hasText: `Annual receipts ${YEAR}` });
  // The screen asks again every 2 seconds: the run appears, running.
  await expect(run.getByText('Running')).toBeVisible({ timeout: 10_000 });
  await expect(run.getByRole('progressbar')).toBeVisible();
  await expect(run).toContainText(`/ ${new Intl.NumberFormat('fr-FR').format(DONORS)}`);
  await screenshot(page, 'jobs-running');
  await expectNoAxeViolations(page);

  await run.getByRole('button', { name: `Cancel Annual receipts ${YEAR}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this job?' });
  await dialog.getByRole('button', { name: 'Cancel job' }).click();
  await expectSuccessToast(page, `Job 'Annual receipts ${YEAR}' was cancelled.`);
  await expect(run.getByText('Cancelled')).toBeVisible({ timeout: 15_000 });
  await screenshot(page, 'jobs-cancelled');

  // The run stopped part-way: some donors were done, the others stay undone.
  const runs = await request.get('/api/donations/annual-runs', { headers: bearer(adminToken) });
  const ofYear = ((await runs.json()) as Array<{ year: number; status: string; pending: number }>).find(
    (row) => row.year === YEAR,
  );
  expect(ofYear?.status).toBe('cancelled');
  expect(ofYear?.pending).toBeGreaterThan(0);
  expect(ofYear?.pending).toBeLessThan(DONORS);

  // At 375 px the table scrolls sideways inside the page, which itself does not.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Jobs', exact: true })).toBeVisible();
  await expect(run.getByText('Cancelled')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(375);
  await screenshot(page, 'jobs-375');
});
