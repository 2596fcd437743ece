/**
 * The Swiss QR-bill and payment reminders (not in the spec; docs/decisions/031, 034): with a QR-IBAN
 * in francs and the organisation's structured address in the settings, a member of staff downloads
 * the invoice of a sale in francs from the Sales screen: it ends with the QR-bill payment part (a
 * second page, in Helvetica as the SIX guidelines want) and its sale shows the 27-digit QR reference.
 * The payments dialog of an invoice not yet due offers no reminder, and the server refuses one with
 * its reason (the reminder of an overdue invoice is covered by the server tests, whose clock moves).
 */
import type { APIRequestContext } from '@playwright/test';
import { createProductThroughApi, listReferenceItemsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { keepDownload, signInThroughUi } from '../fixtures/ui.ts';

/** A Swiss QR-IBAN (institution id 31999, the SIX guidelines' example account). */
const QR_IBAN = 'CH4431999123000889012';

/**
 * The francs account and the structured address a QR-bill needs, written over the settings as they
 * are; the address is the one the organisation-address spec types, so that specs running at the same
 * time see the same values.
 */
async function setSwissAccount(request: APIRequestContext, token: string) {
  const current = await request.get('/api/settings', { headers: bearer(token) });
  await expectOk(current, 'GET /api/settings');
  const settings = (await current.json()) as Record<string, unknown> & {
    bankAccounts?: Array<{ currency: string; iban: string }>;
    organisationName?: string;
  };
  const saved = await request.put('/api/settings', {
    headers: bearer(token),
    data: {
      ...settings,
      organisationName: settings.organisationName || 'Les Amis du Léman',
      addressStreet: 'Rue de la Servette',
      addressBuildingNumber: '12bis',
      addressPostcode: '1202',
      addressTown: 'Genève',
      addressCountry: 'CH',
      bankAccounts: [
        ...(settings.bankAccounts ?? []).filter((account) => account.currency !== 'CHF'),
        { currency: 'CHF', iban: QR_IBAN },
      ],
    },
  });
  await expectOk(saved, 'PUT /api/settings');
}

test('an invoice in francs ends with its QR-bill, and a reminder waits for the due date', async ({
  page,
  request,
  adminToken,
}) => {
  const currencies = await listReferenceItemsThroughApi(request, adminToken, '/api/currencies');
  const franc = currencies.find((currency) => currency.symbol === 'CHF');
  if (!franc) throw new Error('The reference data has no CHF currency');
  const lastName = uniqueName('Bulle');
  const buyer = await seedSubscriberThroughApi(request, adminToken, {
    currencyId: franc.id,
    firstName: 'Heidi',
    lastName,
    town: 'Lausanne',
    postcode: '1003',
  });
  const product = await createProductThroughApi(request, adminToken, {
    name: uniqueName('Calendrier suisse'),
    euroPrice: 21,
    swissPrice: 24.5,
    currentStock: 10,
  });
  const created = await request.post('/api/sales', {
    headers: bearer(adminToken),
    data: {
      subscriberId: buyer.id,
      fullName: `Heidi ${lastName}`,
      currencySymbol: 'CHF',
      swissSale: true,
      addr1: 'Rue du Bourg 3',
      postcode: '1003',
      town: 'Lausanne',
      country: 'Suisse',
      items: [{ productId: product.id, quantity: 2, euroUnitPrice: 21, swissUnitPrice: 24.5 }],
    },
  });
  await expectOk(created, 'POST /api/sales');
  const sale = (await created.json()) as { id: number; ref: number };

  await signInThroughUi(page, ADMIN.email, ADMIN.password);

  await test.step('the invoice downloaded from the Sales screen ends with the QR-bill', async () => {
    await page.goto('/#/sales');
    const field = page.getByLabel('Sales Reference');
    await field.fill(String(sale.ref));
    await field.press('Enter');
    const table = page.getByRole('table', { name: 'Sales' });
    await expect(table.getByText(`#${sale.ref}`, { exact: true })).toBeVisible();
    // Just before the download: a spec saving the settings form meanwhile may have written others.
    await setSwissAccount(request, adminToken);
    const downloading = page.waitForEvent('download');
    await table.getByRole('button', { name: `Invoice #${sale.ref}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`sale-invoice-${sale.ref}.pdf`);
    const pdf = (await keepDownload(download)).toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    // Two pages: the invoice, then the payment part in Helvetica (a standard font: named, not embedded).
    expect(pdf.match(/\/Type \/Page\b/g)).toHaveLength(2);
    expect(pdf).toContain('/BaseFont /Helvetica-Bold');
    const read = await request.get(`/api/sales/${sale.id}`, { headers: bearer(adminToken) });
    await expectOk(read, 'GET /api/sales/{id}');
    const detail = (await read.json()) as {
      paymentReference: string;
      paymentStatus: string;
      dueDate: string;
    };
    expect(detail.paymentReference).toMatch(/^\d{27}$/);
    expect(detail.paymentStatus).toBe('unpaid');
  });

  await test.step('the payments dialog shows the reference and offers no reminder before the due date', async () => {
    const table = page.getByRole('table', { name: 'Sales' });
    await table.getByRole('button', { name: `Record payment #${sale.ref}` }).click();
    const dialog = page.getByRole('dialog', { name: `Payments of sale #${sale.ref}` });
    await expect(dialog.getByText(/^Reference: \d{27}$/)).toBeVisible();
    await expect(dialog.getByText('Unpaid')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Send a reminder' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    const refused = await request.post(`/api/sales/${sale.id}/reminders`, { headers: bearer(adminToken) });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'sales.not_overdue' });
  });
});
