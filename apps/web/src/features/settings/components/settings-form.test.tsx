import { DEFAULT_EMAIL_TEMPLATES } from '@back-office/contract/email-templates';
import { LOGO_MAX_BYTES, type Settings } from '@back-office/contract/settings';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { SettingsForm } from './settings-form.tsx';

const EMPTY: Settings = {
  organisationName: '',
  address: '',
  emailSenderName: '',
  emailSenderAddress: '',
  sirenOrRna: '',
  sepaCreditorId: '',
  signatoryName: '',
  signatoryTitle: '',
  organisationPurpose: '',
  receiptStatement: '',
  invoiceFooter: '',
  paymentTermsText: '',
  logo: null,
};

/** Countries as the list gives them: those with an ISO code can be the organisation's country. */
const COUNTRIES = [
  { id: 1, name: 'France', order: 1, isoCode: 'FR' },
  { id: 2, name: 'Suisse', order: 2, isoCode: 'CH' },
  { id: 3, name: 'Atlantide', order: 100, isoCode: null },
];

/** `mockFetch` with the countries the address's Country field lists. */
function mockSettingsFetch(routes: Parameters<typeof mockFetch>[0]) {
  return mockFetch({ 'GET /api/ctries': () => jsonResponse(COUNTRIES), ...routes });
}

/** A 1×1 transparent PNG. */
const PNG_BYTES = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='),
  (char) => char.charCodeAt(0),
);

function pickLogo(file: File) {
  fireEvent.change(screen.getByLabelText('Logo file'), { target: { files: [file] } });
}

function pickSignature(file: File) {
  fireEvent.change(screen.getByLabelText('Signature image file'), { target: { files: [file] } });
}

describe('SettingsForm', () => {
  it('shows every settings field with the stored values', async () => {
    signIn();
    mockSettingsFetch({
      'GET /api/settings': () =>
        jsonResponse({ ...EMPTY, organisationName: 'Amis de la Suisse', address: '1 rue X' }),
    });
    renderWithProviders(<SettingsForm />);
    expect(await screen.findByLabelText('Organisation name')).toHaveValue('Amis de la Suisse');
    expect(screen.getByLabelText('Address')).toHaveValue('1 rue X');
    for (const label of [
      'Email sender name',
      'Email sender address',
      'SIREN or RNA number',
      'SEPA creditor identifier (ICS)',
      'Signatory name',
      'Signatory title',
      'Organisation purpose',
      'Receipt legal statement',
      'Invoice footer',
      'Payment terms text',
    ]) {
      expect(screen.getByLabelText(label)).toHaveValue('');
    }
    expect(screen.getByText('No logo')).toBeInTheDocument();
  });

  it('refuses a logo that is not PNG or JPEG', async () => {
    signIn();
    mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    pickLogo(new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }));
    expect(await screen.findByText('The logo must be a PNG or JPEG image.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Logo preview' })).not.toBeInTheDocument();
  });

  it('refuses a logo larger than 1 MB', async () => {
    signIn();
    mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    pickLogo(new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo must be at most 1 MB.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Logo preview' })).not.toBeInTheDocument();
  });

  it.each([
    [2001, 10],
    [10, 10_000],
  ])('refuses a %i × %i PNG logo from its header', async (width, height) => {
    signIn();
    mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    const bytes = PNG_BYTES.slice();
    const header = new DataView(bytes.buffer);
    header.setUint32(16, width);
    header.setUint32(20, height);
    pickLogo(new File([bytes], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo must be at most 2000 × 2000 pixels.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Logo preview' })).not.toBeInTheDocument();
  });

  it('refuses a file named PNG that is not an image', async () => {
    signIn();
    mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    pickLogo(new File(['not an image at all'], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo must be a PNG or JPEG image.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Logo preview' })).not.toBeInTheDocument();
  });

  it('keeps the document retention in whole years, 10 by default', async () => {
    signIn();
    const requests = mockSettingsFetch({
      'GET /api/settings': () => jsonResponse(EMPTY),
      'PUT /api/settings': (request) => jsonResponse(request.body),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    const field = await screen.findByLabelText('Document retention (years)');
    expect(field).toHaveValue('10');
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give a number of years.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);

    await user.clear(field);
    await user.type(field, '12');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings were saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      documentRetentionYears: 12,
    });
  });

  it('tells the limits of the logo', async () => {
    signIn();
    mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    renderWithProviders(<SettingsForm />);
    expect(await screen.findByText('PNG or JPEG, at most 1 MB and 2000 × 2000 pixels.')).toBeInTheDocument();
  });

  it('previews a PNG logo, can remove it again, and saves every field with it', async () => {
    signIn();
    const requests = mockSettingsFetch({
      'GET /api/settings': () => jsonResponse(EMPTY),
      'PUT /api/settings': (request) => jsonResponse(request.body),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    await user.type(await screen.findByLabelText('Organisation name'), 'Amis de la Suisse');
    await user.type(screen.getByLabelText('Email sender address'), 'contact@amis.example');

    pickLogo(new File([PNG_BYTES], 'logo.png', { type: 'image/png' }));
    const preview = await screen.findByRole('img', { name: 'Logo preview' });
    expect(preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await user.click(screen.getByRole('button', { name: 'Remove logo' }));
    expect(screen.queryByRole('img', { name: 'Logo preview' })).not.toBeInTheDocument();
    pickLogo(new File([PNG_BYTES], 'logo.png', { type: 'image/png' }));
    await screen.findByRole('img', { name: 'Logo preview' });

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings were saved successfully!')).toBeInTheDocument();
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.body).toMatchObject({
      ...EMPTY,
      organisationName: 'Amis de la Suisse',
      emailSenderAddress: 'contact@amis.example',
      logo: expect.stringMatching(/^data:image\/png;base64,/),
    });
  });

  it('checks the sender address before sending', async () => {
    signIn();
    const requests = mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    const { user } = renderWithProviders(<SettingsForm />);
    await user.type(await screen.findByLabelText('Email sender address'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Valid email is required')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('shows the fields the server refused under them', async () => {
    signIn();
    mockSettingsFetch({
      'GET /api/settings': () => jsonResponse(EMPTY),
      'PUT /api/settings': () =>
        problemResponse(400, 'validation.failed', {
          errors: [{ path: 'logo', message: 'The logo must be a PNG or JPEG image.' }],
        }),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The logo must be a PNG or JPEG image.')).toBeInTheDocument();
    expect(screen.queryByText('Settings were saved successfully!')).not.toBeInTheDocument();
  });

  it('says so in a toast when saving fails', async () => {
    signIn();
    mockSettingsFetch({
      'GET /api/settings': () => jsonResponse(EMPTY),
      'PUT /api/settings': () => problemResponse(500, 'internal'),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem saving the settings. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the email templates in French with their placeholders, and restores a default', async () => {
    signIn();
    const requests = mockSettingsFetch({
      'GET /api/settings': () =>
        jsonResponse({ ...EMPTY, receiptEmailSubject: 'Votre reçu n° {receiptNumber}' }),
      'PUT /api/settings': (request) => jsonResponse(request.body),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    await user.click(await screen.findByRole('button', { name: 'Edit email templates' }));
    const subject = await screen.findByLabelText('Donation receipt email: subject');
    expect(subject).toHaveValue('Votre reçu n° {receiptNumber}');
    expect(screen.getByLabelText('Annual receipt email: text')).toHaveValue(
      DEFAULT_EMAIL_TEMPLATES.annualReceiptEmailText,
    );
    expect(screen.getByLabelText('Group email footer')).toHaveValue(DEFAULT_EMAIL_TEMPLATES.bulkEmailFooter);
    expect(screen.getAllByText(/Placeholders: \{title\}, \{firstName\}/).length).toBeGreaterThan(0);

    await user.click(
      screen.getByRole('button', { name: 'Restore default: Donation receipt email: subject' }),
    );
    expect(subject).toHaveValue('Reçu fiscal n° {receiptNumber}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings were saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      receiptEmailSubject: 'Reçu fiscal n° {receiptNumber}',
    });
  });

  it('refuses an unknown placeholder under its template, as the server does', async () => {
    signIn();
    const requests = mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    const { user } = renderWithProviders(<SettingsForm />);
    await user.click(await screen.findByRole('button', { name: 'Edit email templates' }));
    const text = await screen.findByLabelText('Returned brochure email: text');
    fireEvent.change(text, { target: { value: 'Bonjour {prenom},' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'Unknown placeholder {prenom}: use {title}, {firstName}, {lastName}, {organisationName}.',
      ),
    ).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('shows the server refusing a template under its field', async () => {
    signIn();
    const message = 'Unknown placeholder {foo}: use {organisationName}, {unsubscribeLink}.';
    mockSettingsFetch({
      'GET /api/settings': () => jsonResponse(EMPTY),
      'PUT /api/settings': () =>
        problemResponse(400, 'validation.failed', { errors: [{ path: 'bulkEmailFooter', message }] }),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The templates open by themselves to show the refused one.
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('Group email footer')).toBeInTheDocument();
  });

  it('shows the receipt for other countries, the structured address and the signature image as stored', async () => {
    signIn();
    mockSettingsFetch({
      'GET /api/settings': () =>
        jsonResponse({
          ...EMPTY,
          receiptForOtherCountries: 'attestation',
          addressStreet: 'Rue du Rhône',
          addressBuildingNumber: '12',
          addressPostcode: '1204',
          addressTown: 'Genève',
          addressCountry: 'CH',
          signatureImage: `data:image/png;base64,${btoa(String.fromCharCode(...PNG_BYTES))}`,
        }),
    });
    renderWithProviders(<SettingsForm />);
    expect(await screen.findByLabelText('Street')).toHaveValue('Rue du Rhône');
    expect(screen.getByRole('group', { name: 'Organisation address (structured)' })).toBeInTheDocument();
    expect(screen.getByLabelText('Building number')).toHaveValue('12');
    expect(screen.getByLabelText('Postcode')).toHaveValue('1204');
    expect(screen.getByLabelText('Town')).toHaveValue('Genève');
    expect(await screen.findByDisplayValue('Suisse (CH)')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^Attestation/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^Cerfa/ })).not.toBeChecked();
    expect(screen.getByRole('img', { name: 'Signature image preview' })).toBeInTheDocument();
  });

  it('starts an older answer without the new fields on Cerfa, an empty address and no signature', async () => {
    signIn();
    mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    renderWithProviders(<SettingsForm />);
    expect(await screen.findByLabelText('Street')).toHaveValue('');
    expect(screen.getByRole('radio', { name: /^Cerfa/ })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Type of organisation' })).toHaveValue(
      'Œuvre ou organisme d’intérêt général',
    );
    expect(screen.getByText('No signature image')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('');
  });

  it('saves the receipt choice, the structured address, its country and a signature image', async () => {
    signIn();
    const requests = mockSettingsFetch({
      'GET /api/settings': () => jsonResponse(EMPTY),
      'PUT /api/settings': (request) => jsonResponse(request.body),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    // Pasted rather than typed: every keystroke renders the whole form.
    const address = {
      Street: 'Route de Ferney',
      'Building number': '150',
      Postcode: '1218',
      Town: 'Le Grand-Saconnex',
    };
    await screen.findByLabelText('Street');
    for (const [label, value] of Object.entries(address)) {
      await user.click(screen.getByLabelText(label));
      await user.paste(value);
    }
    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    // Only the countries with an ISO code are offered.
    expect(screen.queryByRole('option', { name: /Atlantide/ })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Suisse (CH)' }));
    await user.click(screen.getByRole('radio', { name: /^Attestation/ }));
    await user.click(screen.getByRole('combobox', { name: 'Type of organisation' }));
    await user.click(await screen.findByRole('option', { name: /^Association ou fondation reconnue/ }));
    await user.click(screen.getByLabelText('Type of organisation: detail'));
    await user.paste('Décret du 3 mars 1985');
    const notice = screen.getByRole('textbox', { name: 'Pre-notification (days)' });
    await user.clear(notice);
    await user.type(notice, '5');
    await user.click(screen.getByRole('checkbox', { name: /^Send first collections as recurring/ }));
    await user.click(screen.getByLabelText('Creditor IBAN'));
    await user.paste('FR76 3000 6000 0112 3456 7890 189');
    pickSignature(new File([PNG_BYTES], 'signature.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Signature image preview' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings were saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      receiptForOtherCountries: 'attestation',
      organisationType: 'public-utility',
      organisationTypeDetail: 'Décret du 3 mars 1985',
      sepaPreNotificationDays: 5,
      sepaFirstAsRecurring: true,
      // As typed: the server stores it without spaces.
      sepaCreditorIban: 'FR76 3000 6000 0112 3456 7890 189',
      addressStreet: 'Route de Ferney',
      addressBuildingNumber: '150',
      addressPostcode: '1218',
      addressTown: 'Le Grand-Saconnex',
      addressCountry: 'CH',
      signatureImage: expect.stringMatching(/^data:image\/png;base64,/),
      logo: null,
    });
  });

  it('refuses a street or a town longer than the QR-bill allows, under the field, before sending', async () => {
    signIn();
    const requests = mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    const { user } = renderWithProviders(<SettingsForm />);
    fireEvent.change(await screen.findByLabelText('Street'), { target: { value: 'r'.repeat(71) } });
    fireEvent.change(screen.getByLabelText('Town'), { target: { value: 't'.repeat(36) } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('At most 70 characters.')).toBeInTheDocument();
    expect(screen.getByText('At most 35 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText('Street')).toHaveAttribute('aria-invalid', 'true');
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('refuses a signature image that is not PNG or JPEG, in its own words', async () => {
    signIn();
    mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    pickSignature(new File(['GIF89a'], 'signature.gif', { type: 'image/gif' }));
    expect(await screen.findByText('The signature image must be a PNG or JPEG image.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Signature image preview' })).not.toBeInTheDocument();
    // The logo is untouched.
    expect(screen.getByText('No logo')).toBeInTheDocument();
  });

  it('shows the server refusing the country or the signature image under them', async () => {
    signIn();
    mockSettingsFetch({
      'GET /api/settings': () => jsonResponse(EMPTY),
      'PUT /api/settings': () =>
        problemResponse(400, 'validation.failed', {
          errors: [
            { path: 'addressCountry', message: 'This is not an ISO 3166-1 alpha-2 country code.' },
            {
              path: 'signatureImage',
              message: 'The signature image is damaged: save it again as PNG or JPEG.',
            },
          ],
        }),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('Organisation name');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(/This is not an ISO 3166-1 alpha-2 country code\./)).not.toHaveLength(
      0,
    );
    expect(screen.getAllByText(/The signature image is damaged/)).not.toHaveLength(0);
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the invoice accounts as stored, and says when one is a QR-IBAN', async () => {
    signIn();
    mockSettingsFetch({
      'GET /api/settings': () =>
        jsonResponse({
          ...EMPTY,
          bankAccounts: [{ currency: 'CHF', iban: 'CH4431999123000889012' }],
          epcQrCode: true,
        }),
    });
    renderWithProviders(<SettingsForm />);
    expect(await screen.findByLabelText('CHF account (IBAN)')).toHaveValue('CH4431999123000889012');
    expect(
      screen.getByText('This is a QR-IBAN: invoices in CHF carry a 27-digit QR reference.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('EUR account (IBAN)')).toHaveValue('');
    expect(screen.getByRole('switch', { name: /^EPC QR code on euro invoices/ })).toBeChecked();
  });

  it('sends the invoice accounts as a list of the currencies that have one, the EPC QR code switch and the reminder interval', async () => {
    signIn();
    const requests = mockSettingsFetch({
      'GET /api/settings': () =>
        jsonResponse({ ...EMPTY, bankAccounts: [{ currency: 'CHF', iban: 'CH9300762011623852957' }] }),
      'PUT /api/settings': (request) => jsonResponse(request.body),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    const chf = await screen.findByLabelText('CHF account (IBAN)');
    // Emptied: no account in francs any more.
    await user.clear(chf);
    await user.click(screen.getByLabelText('EUR account (IBAN)'));
    await user.paste('FR76 3000 6000 0112 3456 7890 189');
    await user.click(screen.getByRole('switch', { name: /^EPC QR code on euro invoices/ }));
    const interval = screen.getByLabelText('Days between payment reminders');
    await user.clear(interval);
    await user.type(interval, '21');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings were saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      bankAccounts: [{ currency: 'EUR', iban: 'FR76 3000 6000 0112 3456 7890 189' }],
      epcQrCode: true,
      reminderIntervalDays: 21,
    });
  });

  it('refuses an IBAN that is not valid under its field, before sending', async () => {
    signIn();
    const requests = mockSettingsFetch({ 'GET /api/settings': () => jsonResponse(EMPTY) });
    const { user } = renderWithProviders(<SettingsForm />);
    await user.click(await screen.findByLabelText('EUR account (IBAN)'));
    await user.paste('FR76 0000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This IBAN is not valid.')).toBeInTheDocument();
    expect(screen.getByLabelText('EUR account (IBAN)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('CHF account (IBAN)')).not.toHaveAttribute('aria-invalid', 'true');
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('shows the server refusing an account under the field of its currency', async () => {
    signIn();
    mockSettingsFetch({
      'GET /api/settings': () =>
        jsonResponse({
          ...EMPTY,
          bankAccounts: [
            { currency: 'CHF', iban: 'CH9300762011623852957' },
            { currency: 'EUR', iban: 'FR7630006000011234567890189' },
          ],
        }),
      'PUT /api/settings': () =>
        problemResponse(400, 'validation.failed', {
          errors: [{ path: 'bankAccounts.1.iban', message: 'This account is closed.' }],
        }),
    });
    const { user } = renderWithProviders(<SettingsForm />);
    await screen.findByLabelText('EUR account (IBAN)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(/This account is closed\./)).not.toHaveLength(0);
    expect(screen.getByLabelText('EUR account (IBAN)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('CHF account (IBAN)')).not.toHaveAttribute('aria-invalid', 'true');
  });
});
