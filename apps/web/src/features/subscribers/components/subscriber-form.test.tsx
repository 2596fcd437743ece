import { act, screen, within } from '@testing-library/react';
import { Link } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { organisationYear } from '../../../lib/calendar.ts';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { signIn } from '../../../testing/session.ts';
import { SubscriberForm } from './subscriber-form.tsx';
import { BLANK, LOOKUPS, renderInDataRouter, ZOE } from './subscriber-test-data.tsx';

function renderForm(subscriber = BLANK, lookups = LOOKUPS) {
  return renderInDataRouter(
    <>
      <Link to="/elsewhere">Go elsewhere</Link>
      <SubscriberForm subscriber={subscriber} lookups={lookups} />
    </>,
    `/subscriber/${subscriber.id === 0 ? 'new' : subscriber.id}`,
  );
}

// The whole record is one form of some fifty fields: typing in jsdom takes a few seconds.
describe('SubscriberForm', { timeout: 20_000 }, () => {
  it('lists the missing required fields under Required: after a save attempt, and sends nothing', async () => {
    const requests = mockFetch({});
    const { user } = renderForm(BLANK, { ...LOOKUPS, currencies: [] });
    expect(screen.getByRole('heading', { name: 'New Subscriber' })).toBeInTheDocument();
    expect(screen.queryByText('Required:')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const required = screen.getByText('Required:').closest('[role="alert"]') as HTMLElement;
    expect(within(required).getByText('First name.')).toBeInTheDocument();
    expect(within(required).getByText('Last name.')).toBeInTheDocument();
    expect(within(required).getByText('Currency.')).toBeInTheDocument();
    expect(requests).toHaveLength(0);

    await user.type(screen.getByLabelText(/^First Name/), 'Zoé');
    expect(within(required).queryByText('First name.')).not.toBeInTheDocument();
    expect(within(required).getByText('Last name.')).toBeInTheDocument();
  });

  it('preselects EURO on a new subscriber, and Swiss Franc when a Suisse country is chosen', async () => {
    mockFetch({});
    const { user } = renderForm();
    expect(screen.getByRole('combobox', { name: /^Currency/ })).toHaveValue('EURO');
    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    await user.click(screen.getByRole('option', { name: 'Suisse' }));
    expect(screen.getByRole('combobox', { name: /^Currency/ })).toHaveValue('Swiss Franc');
    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    await user.click(screen.getByRole('option', { name: 'France' }));
    expect(screen.getByRole('combobox', { name: /^Currency/ })).toHaveValue('Swiss Franc');
  });

  it('Copy to Notes appends "Address changed (date):" and the address', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 7, 10, 0, 0));
    mockFetch({});
    const { user } = renderForm({ ...ZOE, notes: 'Fidèle depuis 1999.' });
    await user.click(screen.getByRole('button', { name: 'Copy to Notes' }));
    expect(screen.getByLabelText(/^Notes/)).toHaveValue(
      'Fidèle depuis 1999.\n\nAddress changed (07-03-2025):\n12 rue du Lac\nLausanne\n1003\nSuisse',
    );
  });

  it('offers only existing tags', async () => {
    mockFetch({});
    const { user } = renderForm(ZOE);
    const tags = screen.getByRole('combobox', { name: 'Tags' });
    await user.click(tags);
    await user.type(tags, 'Nouveau{Enter}');
    expect(screen.getByText('No tag of that name exists')).toBeInTheDocument();
    expect(screen.queryByText('Nouveau', { selector: '.mantine-Pill-label' })).not.toBeInTheDocument();
    await user.clear(tags);
    await user.type(tags, 'Pre');
    await user.click(screen.getByRole('option', { name: 'Presse' }));
    expect(screen.getByText('Presse', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
    expect(screen.getByText('Bénévole', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
  });

  it('never submits on Enter', async () => {
    const requests = mockFetch({});
    const { user } = renderForm(ZOE);
    await user.type(screen.getByLabelText('Town'), ' Ouchy{Enter}');
    expect(requests).toHaveLength(0);
  });

  it('asks before leaving with unsaved changes, and stays or leaves as told', async () => {
    mockFetch({});
    const { user, router } = renderForm(ZOE);
    await user.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();

    await router.navigate('/subscriber/42');
    const pristineUnload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(pristineUnload);
    expect(pristineUnload.defaultPrevented).toBe(false);
    await user.type(await screen.findByLabelText('Town'), ' Ouchy');
    // Closing the tab asks too (the browser's own prompt).
    const dirtyUnload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(dirtyUnload);
    expect(dirtyUnload.defaultPrevented).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(
      within(dialog).getByText('You have unsaved changes! If you leave, your changes will be lost.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/subscriber/42');
    expect(screen.getByLabelText('Town')).toHaveValue('Lausanne Ouchy');

    // The browser's Back button asks too, and Stay keeps the page.
    await act(() => router.navigate(-1));
    const backDialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    await user.click(within(backDialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/subscriber/42');
    expect(screen.getByLabelText('Town')).toHaveValue('Lausanne Ouchy');

    await user.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
  });

  it('creates with POST, says so, and goes to the new page without asking', async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/subscribers': () =>
        jsonResponse(
          { ...BLANK, id: 77, version: 1, firstName: 'Élie', lastName: 'Martin', currencyId: 2 },
          201,
        ),
    });
    const { user, router } = renderForm();
    await user.type(screen.getByLabelText(/^First Name/), 'Élie');
    await user.type(screen.getByLabelText(/^Last Name/), 'Martin');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText("The subscriber 'Élie Martin' was saved successfully"),
    ).toBeInTheDocument();
    expect(requests[0]?.body).toMatchObject({
      id: 0,
      firstName: 'Élie',
      lastName: 'Martin',
      currencyId: 2,
      startDate: null,
      tags: [],
      hidden: false,
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subscriber/77'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the edits when someone else saved first, and reloads on request', async () => {
    signIn();
    const requests = mockFetch({
      'PATCH /api/subscribers/42': () => problemResponse(409, 'subscribers.stale'),
      'GET /api/subscribers/42': () => jsonResponse({ ...ZOE, version: 4, town: 'Genève' }),
    });
    const { user } = renderForm(ZOE);
    await user.type(screen.getByLabelText('Town'), ' Ouchy');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(/Someone else changed this subscriber since you opened it\. Your changes/),
    ).toBeInTheDocument();
    expect(requests[0]?.body).toMatchObject({ id: 42, version: 3, town: 'Lausanne Ouchy' });
    expect(screen.getByLabelText('Town')).toHaveValue('Lausanne Ouchy');

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await vi.waitFor(() => expect(screen.getByLabelText('Town')).toHaveValue('Genève'));
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
  });

  it('shows the email consent, takes a French date and a source, and sends them as YYYY-MM-DD', async () => {
    signIn();
    const requests = mockFetch({
      'PATCH /api/subscribers/42': () => jsonResponse({ ...ZOE, version: 4 }),
    });
    const { user } = renderForm({
      ...ZOE,
      emailConsentDate: '2024-05-02',
      emailConsentSource: 'Formulaire web',
    });
    const date = screen.getByLabelText('Email Consent Date');
    expect(date).toHaveValue('02/05/2024');
    expect(screen.getByLabelText('Email Consent Source')).toHaveValue('Formulaire web');
    await user.clear(date);
    await user.type(date, '15/01/2023');
    await user.tab();
    const source = screen.getByLabelText('Email Consent Source');
    await user.clear(source);
    await user.type(source, 'Bulletin papier');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toMatchObject({
      emailConsentDate: '2023-01-15',
      emailConsentSource: 'Bulletin papier',
    });
  });

  it('sends no email consent date when the field is cleared, and shows the server refusing a future one', async () => {
    signIn();
    const requests = mockFetch({
      'PATCH /api/subscribers/42': () =>
        problemResponse(400, 'subscribers.future_consent_date', {
          errors: [{ path: 'emailConsentDate', message: 'The email consent date cannot be in the future.' }],
        }),
    });
    const { user } = renderForm({ ...ZOE, emailConsentDate: '2024-05-02' });
    await user.clear(screen.getByLabelText('Email Consent Date'));
    await user.tab();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The email consent date cannot be in the future.')).toBeInTheDocument();
    expect(requests[0]?.body).toMatchObject({ emailConsentDate: null, emailConsentSource: '' });
  });

  it("shows the server's field errors under their fields", async () => {
    signIn();
    mockFetch({
      'PATCH /api/subscribers/42': () =>
        problemResponse(400, 'validation.failed', {
          errors: [{ path: 'countryId', message: 'This country does not exist.' }],
        }),
    });
    const { user } = renderForm(ZOE);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This country does not exist.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Houston - there was a problem saving the subscriber. Please check the fields marked in red. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the Actions menu of a saved subscriber, with email items only when it has an email', async () => {
    mockFetch({});
    const { user, unmount } = renderForm(ZOE);
    expect(screen.getByRole('heading', { name: 'Mme Zoé Dupont' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    const year = organisationYear(); // the organisation's year, not the browser's
    for (const item of [
      'View Donations',
      'View Sales',
      'Generate RUM Letter',
      `Download Donation Receipt (${year})`,
      `Email Donation Receipt (${year})`,
      `Download Receipt (${year - 1})`,
      `Email Receipt (${year - 1})`,
      'Send Returned Brochure Email',
      'View History',
    ]) {
      expect(screen.getByRole('menuitem', { name: item })).toBeInTheDocument();
    }
    unmount();

    const second = renderForm({ ...ZOE, email: '' });
    await second.user.click(screen.getByRole('button', { name: 'Actions' }));
    expect(screen.getByRole('menuitem', { name: 'Generate RUM Letter' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /^Email/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Send Returned Brochure Email' })).not.toBeInTheDocument();
  });
});
