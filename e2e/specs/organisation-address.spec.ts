import type { Page } from '@playwright/test';
import { expectAccessible, expectFitsPhone } from '../fixtures/accessibility.ts';
import { getSettingsThroughApi, listReferenceItemsThroughApi, uniqueName } from '../fixtures/catalogue.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer, expectOk } from '../fixtures/http.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/**
 * What French and Swiss tax documents need (docs/decisions/022): the organisation's structured address
 * (Swiss QR-bill), the receipt of donors living in other countries and the signature image, set on
 * the Settings screen; the ISO code of a country, set on the Countries screen.
 */

/** A 1×1 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const ADDRESS: Record<string, string> = {
  Street: 'Rue de la Servette',
  'Building number': '12bis',
  Postcode: '1202',
  Town: 'Genève',
};

function countryRow(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

test('an administrator sets the structured address, the receipt for other countries and a signature image, and they are kept', async ({
  page,
  request,
  adminToken,
}) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Settings');
  const address = page.getByRole('group', { name: 'Organisation address (structured)' });

  await test.step('a street longer than the QR-bill allows is refused under the field', async () => {
    await address.getByLabel('Street', { exact: true }).fill('r'.repeat(71));
    await address.getByLabel('Street', { exact: true }).blur();
    await expect(address.getByText('At most 70 characters.')).toBeVisible();
  });

  await test.step('fill in the address, choose the country, the attestation (keyboard) and a signature', async () => {
    for (const [label, value] of Object.entries(ADDRESS)) {
      await address.getByLabel(label, { exact: true }).fill(value);
    }
    await expect(address.getByText('At most 70 characters.')).toHaveCount(0);
    await address.getByRole('combobox', { name: 'Country' }).click();
    await address.getByRole('combobox', { name: 'Country' }).fill('Suis');
    await page.getByRole('option', { name: 'Suisse (CH)' }).click();
    await expect(address.getByRole('combobox', { name: 'Country' })).toHaveValue('Suisse (CH)');

    const cerfa = page.getByRole('radio', { name: /^Cerfa/ });
    await expect(cerfa).toBeChecked();
    await cerfa.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('radio', { name: /^Attestation/ })).toBeChecked();

    await page
      .getByLabel('Signature image file')
      .setInputFiles({ name: 'signature.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect(page.getByText('The signature image must be a PNG or JPEG image.')).toBeVisible();
    await page
      .getByLabel('Signature image file')
      .setInputFiles({ name: 'signature.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('img', { name: 'Signature image preview' })).toBeVisible();
    await expect(page.getByText('The signature image must be a PNG or JPEG image.')).toHaveCount(0);

    await address.scrollIntoViewIfNeeded();
    await screenshot(page, 'organisation-address-filled', { fullPage: false });
    await page.getByRole('heading', { name: 'Tax receipts' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'organisation-tax-receipts-filled', { fullPage: false });
    await expectAccessible(page, 'the settings with the structured address');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, 'Settings were saved successfully!');
  });

  await test.step('after a reload they are still there, on the screen and from the API', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    for (const [label, value] of Object.entries(ADDRESS)) {
      await expect(address.getByLabel(label, { exact: true })).toHaveValue(value);
    }
    await expect(address.getByRole('combobox', { name: 'Country' })).toHaveValue('Suisse (CH)');
    await expect(page.getByRole('radio', { name: /^Attestation/ })).toBeChecked();
    await expect(page.getByRole('img', { name: 'Signature image preview' })).toHaveAttribute(
      'src',
      /^data:image\/png;base64,/,
    );
    const saved = await getSettingsThroughApi(request, adminToken);
    expect(saved).toMatchObject({
      receiptForOtherCountries: 'attestation',
      addressStreet: 'Rue de la Servette',
      addressBuildingNumber: '12bis',
      addressPostcode: '1202',
      addressTown: 'Genève',
      addressCountry: 'CH',
    });
    // Stored re-encoded by the server, as the logo is.
    expect(saved.signatureImage).toMatch(/^data:image\/png;base64,/);
    expect(saved.signatureImage).not.toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  await test.step('the screen fits a phone', async () => {
    await expectFitsPhone(page, 'settings-organisation-address');
  });
});

test('an administrator gives a country an ISO code; one another country has is refused under the field', async ({
  page,
  request,
  adminToken,
}) => {
  const headers = bearer(adminToken);
  const name = uniqueName('Île Bouvet (Norvège)');
  // A country staff added without a code, and the seeded country that had the code it should get.
  const created = await request.post('/api/ctries', { headers, data: { name } });
  await expectOk(created, 'POST /api/ctries');
  const countries = await listReferenceItemsThroughApi(request, adminToken, '/api/ctries');
  const bouvet = countries.find((country) => country.isoCode === 'BV');
  if (bouvet) {
    await expectOk(
      await request.patch(`/api/ctries/${bouvet.id}`, {
        headers,
        data: { id: bouvet.id, name: bouvet.name, isoCode: null },
      }),
      'PATCH /api/ctries (free BV)',
    );
  }

  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Countries');
  await expect(countryRow(page, 'France')).toContainText('ISO code FR');

  await countryRow(page, name).getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Country' });
  const isoCode = dialog.getByLabel('ISO code');
  await expect(isoCode).toHaveValue('');

  await test.step('a code that Suisse has is refused under ISO code, the dialog stays open', async () => {
    await isoCode.fill('ch');
    await expect(isoCode).toHaveValue('CH');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await expect(dialog.getByText('Another country already has this ISO code.').first()).toBeVisible();
    await expect(isoCode).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'the Edit Country dialog with a refused ISO code', {
      include: '[role="dialog"]',
    });
    await screenshot(page, 'countries-iso-code-taken', { fullPage: false });
  });

  await test.step('a free code is saved and shown on the row', async () => {
    await isoCode.fill('');
    await isoCode.pressSequentially('bv');
    await expect(isoCode).toHaveValue('BV');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await expectSuccessToast(page, `Item '${name}' was updated successfully!`);
    await expect(dialog).toBeHidden();
    await expect(countryRow(page, name)).toContainText('ISO code BV');
    const saved = (await listReferenceItemsThroughApi(request, adminToken, '/api/ctries')).find(
      (country) => country.name === name,
    );
    expect(saved?.isoCode).toBe('BV');
    await countryRow(page, name).scrollIntoViewIfNeeded();
    await screenshot(page, 'countries-iso-code', { fullPage: false });
  });
});
