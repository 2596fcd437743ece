/**
 * The annual statement of the tax receipts issued (CGI art. 222 bis): an Administrator opens it from
 * the Receipts screen, sees last year's (none: the database is new), chooses this year with the
 * keyboard and sees the figures the server answered, which count the receipts issued here through
 * the API (a cancelled one left out); downloads the PDF and the CSV; the screen passes axe and fits a
 * 375 px phone. The statement counts receipts by the day they were issued, which is today for every
 * receipt of an end-to-end run, and other specs issue receipts beside this one: the figures are read
 * from the server's answer, never fixed here. The gifts are given in 2015, a year no other spec uses.
 */
import type { Page } from '@playwright/test';
import { pdfPages } from '../../apps/server/test/pdf-text.ts';
import { expectFitsPhone, expectNoAxeViolations } from '../fixtures/accessibility.ts';
import { euroThroughApi, franceThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { createDonationThroughApi } from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { keepDownload, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** The year of the seeded gifts: no other spec gives in it. */
const GIFT_YEAR = 2015;

/** The year the receipts are issued in: this year, where the organisation is (the run's TZ). */
const ISSUE_YEAR = new Date().getFullYear();

/** The statement as `GET /api/receipts/annual-statement` answers it. */
type ApiStatement = {
  year: number;
  receiptCount: number;
  totalAmount: number;
  currency: string;
  byType: Array<{ type: string; count: number; amount: number }>;
};

/** A receipt as `GET /api/receipts` lists it (the fields this spec reads). */
type ApiRegisteredReceipt = { number: number; subscriberId: number; amount: number; status: string };

const FRENCH_COUNT = new Intl.NumberFormat('fr-FR');
const FRENCH_AMOUNT = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Every kind of space one plain space: French formats group thousands with a narrow no-break space. */
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();
const count = (value: number) => plain(FRENCH_COUNT.format(value));
const euros = (value: number) => plain(`${FRENCH_AMOUNT.format(value)} €`);

/** Waits for the statement of `year` the screen asks for, and resolves with the server's answer. */
async function statementAnswer(page: Page, year: number): Promise<ApiStatement> {
  const response = await page.waitForResponse(
    (candidate) =>
      new URL(candidate.url()).pathname === '/api/receipts/annual-statement' &&
      new URL(candidate.url()).searchParams.get('year') === String(year),
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiStatement;
}

/** Chooses `year` in the Year list with the keyboard (the list is newest first). */
async function chooseYearWithKeyboard(page: Page, year: number) {
  const select = page.getByRole('combobox', { name: 'Year' });
  await select.focus();
  await page.keyboard.press('ArrowDown');
  const option = page.getByRole('option', { name: String(year), exact: true });
  await expect(option).toBeVisible();
  // The list opens on the year chosen (last year); this year is the one above it.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(select).toHaveValue(String(year));
}

test('an Administrator reads, prints and exports the annual statement of receipts', async ({
  page,
  request,
  adminToken,
}) => {
  const euro = await euroThroughApi(request, adminToken);
  const france = await franceThroughApi(request, adminToken);
  const donor = await seedSubscriberThroughApi(request, adminToken, {
    currencyId: euro.id,
    countryId: france.id,
    title: 'M.',
    firstName: 'Paul',
    lastName: uniqueName('Etat'),
    address1: '8 quai Perrière',
    town: 'Grenoble',
    postcode: '38000',
  });
  for (const [amount, donationDate] of [
    [120, `${GIFT_YEAR}-02-14`],
    [80.5, `${GIFT_YEAR}-06-30`],
    [30, `${GIFT_YEAR}-11-02`],
  ] as const) {
    const donation = await createDonationThroughApi(request, adminToken, {
      subid: donor.id,
      amount,
      donationDate,
    });
    // The first download of a donation's receipt issues it.
    await expectOk(
      await request.get(`/api/donations/receipt/${donation.id}`, { headers: bearer(adminToken) }),
      `GET /api/donations/receipt/${donation.id}`,
    );
  }
  const listed = await request.get(`/api/receipts?year=${GIFT_YEAR}&listlength=500`, {
    headers: bearer(adminToken),
  });
  await expectOk(listed, `GET /api/receipts?year=${GIFT_YEAR}`);
  const ours = ((await listed.json()) as { models: ApiRegisteredReceipt[] }).models.filter(
    (receipt) => receipt.subscriberId === donor.id,
  );
  expect(ours.map((receipt) => receipt.amount)).toEqual([120, 80.5, 30]);
  const cancelled = ours[2]?.number;
  await expectOk(
    await request.post(`/api/receipts/${cancelled}/cancel`, {
      data: { reason: 'Don remboursé' },
      headers: bearer(adminToken),
    }),
    `POST /api/receipts/${cancelled}/cancel`,
  );

  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('the statement opens from the Receipts screen, on last year: none issued', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Receipts', exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Receipts', exact: true, level: 1 })).toBeVisible();
    const lastYear = statementAnswer(page, ISSUE_YEAR - 1);
    await page.getByRole('link', { name: 'Annual statement' }).click();
    await expect(page).toHaveURL(/#\/receipts\/statement$/);
    await expect(
      page.getByRole('heading', { name: 'Annual statement of receipts', exact: true, level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Year' })).toHaveValue(String(ISSUE_YEAR - 1));
    // The database of the run is new: nothing was issued last year.
    expect(await lastYear).toMatchObject({ receiptCount: 0, totalAmount: 0, byType: [] });
    await expect(page.getByText(`No tax receipts were issued in ${ISSUE_YEAR - 1}.`)).toBeVisible();
  });

  await test.step('this year, chosen with the keyboard, shows the figures the server answered', async () => {
    const answer = statementAnswer(page, ISSUE_YEAR);
    await chooseYearWithKeyboard(page, ISSUE_YEAR);
    const statement = await answer;
    // Ours are in it (two issued, the third cancelled), beside what other specs issued today.
    expect(statement.receiptCount).toBeGreaterThanOrEqual(2);
    expect(statement.totalAmount).toBeGreaterThanOrEqual(200.5);
    expect(statement.byType.map((row) => row.type)).toEqual(['200']);
    await expect(page.getByRole('heading', { name: `Receipts issued in ${ISSUE_YEAR}` })).toBeVisible();
    const table = page.getByRole('table', { name: 'By article of the tax code' });
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(3);
    expect(plain((await rows.nth(1).textContent()) ?? '')).toBe(
      `Article 200 — individual donors${count(statement.receiptCount)}${euros(statement.totalAmount)}`,
    );
    expect(plain((await rows.nth(2).textContent()) ?? '')).toBe(
      `Total${count(statement.receiptCount)}${euros(statement.totalAmount)}`,
    );
    const main = page.getByRole('main');
    expect(plain((await main.textContent()) ?? '')).toContain(
      `Receipts issued${count(statement.receiptCount)}Total of the gifts${euros(statement.totalAmount)}`,
    );
    await screenshot(page, 'receipt-statement');
    await expectNoAxeViolations(page);
  });

  await test.step('the PDF prints the statement of the year, as the server computes it then', async () => {
    const statementNow = async () => {
      const response = await request.get(`/api/receipts/annual-statement?year=${ISSUE_YEAR}`, {
        headers: bearer(adminToken),
      });
      await expectOk(response, `GET /api/receipts/annual-statement?year=${ISSUE_YEAR}`);
      return (await response.json()) as ApiStatement;
    };
    // Other specs may issue a receipt while the file is made: then the figures are read again.
    await expect(async () => {
      const before = await statementNow();
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download PDF' }).click();
      const download = await downloading;
      const after = await statementNow();
      expect(download.suggestedFilename()).toBe(`receipts-annual-statement-${ISSUE_YEAR}.pdf`);
      const pages = await pdfPages(await keepDownload(download));
      expect(pages).toHaveLength(1);
      const text = plain(pages[0] ?? '');
      expect(text).toContain(`État annuel des reçus fiscaux délivrés — ${ISSUE_YEAR}`);
      expect(text).toContain('Article 222 bis du code général des impôts');
      const printed = [before, after].some(
        (statement) =>
          text.includes(`Nombre de reçus délivrés ${count(statement.receiptCount)}`) &&
          text.includes(`Montant total des dons mentionnés sur ces reçus ${euros(statement.totalAmount)}`) &&
          text.includes(
            `Article 200 (dons des particuliers) ${count(statement.receiptCount)} ${euros(statement.totalAmount)}`,
          ),
      );
      expect(printed, text).toBe(true);
    }).toPass({ timeout: 60_000 });
  });

  await test.step('the statement exports as CSV: its article, then the total', async () => {
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'Standard CSV: commas, decimal point' }).click();
    const exporting = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export the statement' }).click();
    const csv = await exporting;
    expect(csv.suggestedFilename()).toBe(`receipts-annual-statement-${ISSUE_YEAR}.csv`);
    const lines = (await keepDownload(csv))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('year,type,count,amount,currency');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^${ISSUE_YEAR},200,\\d+,\\d+\\.\\d{2},EUR$`));
    expect(lines[2]).toMatch(new RegExp(`^${ISSUE_YEAR},total,\\d+,\\d+\\.\\d{2},EUR$`));
  });

  await test.step('at 375 px the statement fits the phone', async () => {
    await expectFitsPhone(page, 'receipt-statement');
    await screenshot(page, 'receipt-statement-375');
    await expect(page.getByRole('button', { name: 'Download PDF' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
