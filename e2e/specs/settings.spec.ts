import { getSettingsThroughApi } from '../fixtures/catalogue.ts';
import { waitForEmailTo } from '../fixtures/donations.ts';
import { ADMIN } from '../fixtures/env.ts';
import { bearer } from '../fixtures/http.ts';
import { emailsSoFar } from '../fixtures/mail.ts';
import { seedSubscriberThroughApi } from '../fixtures/subscribers.ts';
import { expect, test } from '../fixtures/test.ts';
import { expectSuccessToast, openFromAdminMenu, screenshot, signInThroughUi } from '../fixtures/ui.ts';

/** Organisation settings, Administrators only (a domain of docs/spec/design.md §Layout). */

/** A 1×1 red PNG (the preview stretches it into a visible red square). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const VALUES: Record<string, string> = {
  'Organisation name': 'Les Amis franco-suisses',
  Address: '12 rue de la Paix\n75002 Paris',
  'Email sender name': 'Les Amis franco-suisses',
  'Email sender address': 'contact@amis-franco-suisses.example',
  'SIREN or RNA number': 'W751234567',
  'SEPA creditor identifier (ICS)': 'FR72ZZZ123456',
  'Signatory name': 'Hélène Dupré',
  'Signatory title': 'Trésorière',
  'Organisation purpose': 'Association loi 1901 d’intérêt général, amitié franco-suisse.',
  'Receipt legal statement':
    'Reçu au titre des dons à certains organismes d’intérêt général (art. 200 du CGI).',
  'Invoice footer': 'Association non assujettie à la TVA (art. 261-7-1° du CGI).',
  'Payment terms text': 'Paiement à réception de facture.',
};

test('an administrator fills in the organisation settings, and they are kept', async ({
  page,
  request,
  adminToken,
}) => {
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Settings');

  await test.step('the logo must be a PNG or JPEG of at most 1 MB and 2000 × 2000 pixels', async () => {
    await expect(page.getByText('PNG or JPEG, at most 1 MB and 2000 × 2000 pixels.')).toBeVisible();
    await page
      .getByLabel('Logo file')
      .setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect(page.getByText('The logo must be a PNG or JPEG image.')).toBeVisible();
    await page.getByLabel('Logo file').setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(1024 * 1024 + 1),
    });
    await expect(page.getByText('The logo must be at most 1 MB.')).toBeVisible();
    // A few bytes whose header declares 10,000 × 10,000 pixels: refused without decoding it.
    const huge = Buffer.from(PNG);
    huge.writeUInt32BE(10_000, 16);
    huge.writeUInt32BE(10_000, 20);
    await page
      .getByLabel('Logo file')
      .setInputFiles({ name: 'bomb.png', mimeType: 'image/png', buffer: huge });
    await expect(page.getByText('The logo must be at most 2000 × 2000 pixels.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Logo preview' })).toHaveCount(0);
  });

  await test.step('fill in every field and a logo, then save', async () => {
    for (const [label, value] of Object.entries(VALUES)) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    await page
      .getByLabel('Logo file')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('img', { name: 'Logo preview' })).toBeVisible();
    await expect(page.getByText('The logo must be at most 1 MB.')).toHaveCount(0);
    await page.getByRole('heading', { name: 'Settings' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-filled-top', { fullPage: false });
    await page.getByRole('button', { name: 'Save' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-filled-bottom', { fullPage: false });
    await page.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, 'Settings were saved successfully!');
  });

  await test.step('after a reload the values are still there', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    for (const [label, value] of Object.entries(VALUES)) {
      await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
    }
    await expect(page.getByRole('img', { name: 'Logo preview' })).toHaveAttribute(
      'src',
      /^data:image\/png;base64,/,
    );
    const saved = await getSettingsThroughApi(request, adminToken);
    expect(saved.organisationName).toBe(VALUES['Organisation name']);
    // Stored re-encoded by the server: a PNG still, not the bytes sent.
    expect(saved.logo).toMatch(/^data:image\/png;base64,/);
    expect(saved.logo).not.toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    await screenshot(page, 'settings-after-reload', { fullPage: false });
  });
});

test('a User can neither see nor open Settings', async ({ page, seedUser }) => {
  const user = await seedUser({ fullName: 'Settings Outsider' });
  await signInThroughUi(page, user.email, user.password);
  await page.getByRole('navigation').getByRole('button', { name: 'Admin' }).click();
  await expect(page.getByRole('menuitem', { name: 'Products' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/#/settings');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Settings' })).toHaveCount(0);
});

test('an administrator edits an email template: an unknown placeholder is refused, the email uses it, Restore default puts the French text back', async ({
  page,
  request,
  adminToken,
}) => {
  // Two screens and the outbox: longer than most specs on the shared machine.
  test.slow();
  const lastName = `Gabarit ${Date.now()}`;
  const subscriber = await seedSubscriberThroughApi(request, adminToken, {
    title: 'M.',
    firstName: 'Émile',
    lastName,
    currencyId: 1,
    email: `gabarit.${Date.now()}@example.org`,
  });
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  await openFromAdminMenu(page, 'Settings');
  await page.getByRole('button', { name: 'Edit email templates' }).click();
  const subject = page.getByLabel('Returned brochure email: subject', { exact: true });
  await expect(subject).toHaveValue('Brochure retournée');

  await test.step('an unknown placeholder is refused under the field, naming it', async () => {
    await subject.fill('Votre adresse, {prenom} ?');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByText(
        'Unknown placeholder {prenom}: use {title}, {firstName}, {lastName}, {organisationName}.',
      ),
    ).toBeVisible();
    const refused = await request.put('/api/settings', {
      headers: bearer(adminToken),
      data: {
        ...(await getSettingsThroughApi(request, adminToken)),
        brochureEmailSubject: 'Votre adresse, {prenom} ?',
      },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).errors).toEqual([
      {
        path: 'brochureEmailSubject',
        message: 'Unknown placeholder {prenom}: use {title}, {firstName}, {lastName}, {organisationName}.',
      },
    ]);
  });

  await test.step('a valid template is saved and used by the returned-brochure email, in text and HTML', async () => {
    await subject.fill('Votre adresse, {firstName} ?');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, 'Settings were saved successfully!');
    const before = await emailsSoFar();
    await page.goto(`/#/subscriber/${subscriber.id}`);
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Send Returned Brochure Email' }).click();
    await expectSuccessToast(page, 'Missing brochure email sent successfully!');
    const email = await waitForEmailTo(subscriber.email, { ignore: before });
    expect(email.subject).toBe('Votre adresse, Émile ?');
    expect(email.text).toContain(`Bonjour M. Émile ${lastName},`);
    expect(email.source).toMatch(/Content-Type: text\/html/i);
  });

  await test.step('Restore default puts the French text back', async () => {
    await openFromAdminMenu(page, 'Settings');
    await page.getByRole('button', { name: 'Edit email templates' }).click();
    await expect(subject).toHaveValue('Votre adresse, {firstName} ?');
    await page.getByRole('button', { name: 'Restore default: Returned brochure email: subject' }).click();
    await expect(subject).toHaveValue('Brochure retournée');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectSuccessToast(page, 'Settings were saved successfully!');
    expect((await getSettingsThroughApi(request, adminToken)).brochureEmailSubject).toBe(
      'Brochure retournée',
    );
  });
});
