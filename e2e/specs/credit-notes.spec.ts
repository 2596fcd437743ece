import type { Locator } from '@playwright/test';
import { pdfPages } from '../../apps/server/test/pdf-text.ts';
import {
  createProductThroughApi,
  listProductsThroughApi,
  listReferenceItemsThroughApi,
  uniqueName,
} from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { searchSalesThroughApi } from '../fixtures/sales.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import {
  expectErrorToast,
  expectSuccessToast,
  keepDownload,
  screenshot,
  signInThroughUi,
} from '../fixtures/ui.ts';

/**
 * Credit notes: a sale whose invoice was issued is never deleted; it is cancelled with a reason by a
 * credit note (its own number, its PDF "Avoir n° … annule la facture n° …"), which puts the stock back.
 */

/** The row of a table holding this exact text. */
function rowWith(table: Locator, text: string): Locator {
  return table.getByRole('row').filter({ has: table.page().getByText(text, { exact: true }) });
}

test('an issued invoice is cancelled by a credit note, downloaded as a PDF', async ({
  page,
  request,
  adminToken,
}) => {
  const product = await createProductThroughApi(request, adminToken, {
    name: uniqueName('Agenda'),
    euroPrice: 12.5,
    swissPrice: 14,
    currentStock: 10,
    minStockAlert: 2,
  });
  const currencies = await listReferenceItemsThroughApi(request, adminToken, '/api/currencies');
  const euro = currencies.find((currency) => currency.symbol === '€');
  if (!euro) throw new Error('The reference data has no euro currency');
  const buyer = await seedSubscriberThroughApi(request, adminToken, {
    currencyId: euro.id,
    firstName: 'Zoé',
    lastName: uniqueName('Avoir'),
    town: 'Lyon',
    postcode: '69001',
  });
  const created = await request.post('/api/sales', {
    headers: bearer(adminToken),
    data: {
      subscriberId: buyer.id,
      fullName: `Zoé ${buyer.lastName}`,
      country: 'France',
      items: [{ productId: product.id, quantity: 3, euroUnitPrice: 12.5, swissUnitPrice: 14 }],
    },
  });
  await expectOk(created, 'POST /api/sales');
  const sale = (await created.json()) as { id: number; ref: number };

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await page.goto('/#/sales');
  await page.getByLabel('Sales Reference').fill(String(sale.ref));
  await page.getByLabel('Sales Reference').press('Enter');
  const table = page.getByRole('table', { name: 'Sales' });
  const row = rowWith(table, `#${sale.ref}`);
  await expect(row).toContainText('37,50 (€)');
  await expect(row.getByRole('button', { name: 'Cancel sale' })).toHaveCount(0);

  await test.step('the invoice is issued by its first download', async () => {
    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: `Invoice #${sale.ref}` }).click();
    const invoice = await downloading;
    expect(invoice.suggestedFilename()).toBe(`sale-invoice-${sale.ref}.pdf`);
    await keepDownload(invoice);
    await expect(row.getByRole('button', { name: 'Cancel sale' })).toBeVisible();
  });

  await test.step('Remove is refused with the reason', async () => {
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'CONFIRM DELETE' }).click();
    await expectErrorToast(page, 'Its invoice was issued: cancel the sale with a credit note instead.');
    await expect(row).toBeVisible();
  });

  let creditNoteNumber = 0;
  await test.step('Cancel sale asks for a reason and issues the credit note', async () => {
    await row.getByRole('button', { name: 'Cancel sale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel sale' });
    await dialog.getByRole('button', { name: 'Cancel the sale' }).click();
    await expect(dialog.getByText('Give the reason for the cancellation.')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Commande en double');
    await screenshot(page, 'credit-notes-cancel-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel the sale' }).click();
    await expectSuccessToast(page, `Sale #${sale.ref} was cancelled by the credit note n°`);
    await expect(dialog).toBeHidden();
    const [cancelled] = await searchSalesThroughApi(request, adminToken, { salesref: sale.ref });
    expect(cancelled?.status).toBe('cancelled');
    creditNoteNumber = cancelled?.creditNoteNumber ?? 0;
    expect(creditNoteNumber).toBeGreaterThan(0);
    await expect(page.getByText(`#${sale.ref} (cancelled)`)).toBeVisible();
    const stock = await listProductsThroughApi(request, adminToken);
    expect(stock.find((item) => item.id === product.id)?.currentStock).toBe(10);
    await screenshot(page, 'credit-notes-list');
  });

  await test.step('the credit note downloads as credit-note-{number}.pdf', async () => {
    const cancelledRow = rowWith(table, `#${sale.ref} (cancelled)`);
    const downloading = page.waitForEvent('download');
    await cancelledRow.getByRole('button', { name: `Credit note n° ${creditNoteNumber}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`credit-note-${creditNoteNumber}.pdf`);
    const pdf = await keepDownload(download);
    const [text] = await pdfPages(pdf);
    expect(text).toContain(`Avoir n° ${creditNoteNumber} annule la facture n° ${sale.ref}.`);
    expect(text).toContain('Motif : Commande en double');
    expect(text).toContain('37,50 €');
  });

  await test.step('at 375 px wide the cancelled sale and its credit note stay reachable', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('button', { name: `Credit note n° ${creditNoteNumber}` })).toBeAttached();
    await screenshot(page, 'credit-notes-list-375');
  });
});
