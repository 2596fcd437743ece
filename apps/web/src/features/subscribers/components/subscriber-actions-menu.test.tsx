import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyResponse, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { SubscriberActionsMenu } from './subscriber-actions-menu.tsx';
import { renderInDataRouter, ZOE } from './subscriber-test-data.tsx';

let savedNames: string[] = [];

beforeEach(() => {
  savedNames = [];
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL = () => 'blob:file';
      static override revokeObjectURL = () => {};
    },
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    savedNames.push(this.download);
  });
});

function renderMenu(onRecordChanged = vi.fn()) {
  const onBusyChange = vi.fn();
  const rendered = renderWithProviders(
    <SubscriberActionsMenu
      subscriber={ZOE}
      currencySymbol="CHF"
      currentYear={2025}
      onBusyChange={onBusyChange}
      onRecordChanged={onRecordChanged}
    />,
  );
  return { ...rendered, onBusyChange, onRecordChanged };
}

const pdf = (name?: string) =>
  new Response('%PDF-1.7', {
    headers: {
      'Content-Type': 'application/pdf',
      ...(name ? { 'Content-Disposition': `attachment; filename="${name}"` } : {}),
    },
  });

describe('SubscriberActionsMenu', () => {
  it('downloads the RUM letter as {lastname}-rum-letter.pdf and reports the record changed', async () => {
    signIn();
    mockFetch({ 'GET /api/subscribers/42/rum': () => pdf() });
    const { user, onRecordChanged, onBusyChange } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Generate RUM Letter' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['Dupont-rum-letter.pdf']));
    expect(onRecordChanged).toHaveBeenCalledOnce();
    expect(onBusyChange).toHaveBeenLastCalledWith(false);
  });

  it('says why a mandate letter cannot be made', async () => {
    signIn();
    mockFetch({
      'GET /api/subscribers/42/rum': () =>
        problemResponse(409, 'subscribers.mandate_settings_missing', {
          detail: 'Enter the SEPA creditor identifier (ICS) in the settings first: a mandate needs them.',
        }),
    });
    const { user } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Generate RUM Letter' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem generating the RUM letter. Enter the SEPA creditor identifier (ICS) in the settings first: a mandate needs them. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('downloads and emails the receipts of the current and previous year', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/donations/receipt/42/2024': () => pdf('Dupont-donations-receipt-2024.pdf'),
      'GET /api/donations/receipt/42/2025': () => problemResponse(404, 'donations.none_for_year'),
      'GET /api/donations/annualemail/42/2025': () =>
        jsonResponse({ queued: 1, issued: 1, alreadyIssued: 0, emailedTo: 'anne@example.org' }),
      'GET /api/donations/annualemail/42/2024': () =>
        jsonResponse({ queued: 1, issued: 0, alreadyIssued: 2, emailedTo: 'anne@example.org' }),
    });
    const { user } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Download Receipt (2024)' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['Dupont-donations-receipt-2024.pdf']));

    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Download Donation Receipt (2025)' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem exporting the subscribers. There are no donations for 2025. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Email Donation Receipt (2025)' }));
    expect(
      await screen.findByText(
        'Annual donation receipt was emailed successfully! 1 receipt issued, emailed to anne@example.org.',
      ),
    ).toBeInTheDocument();
    expect(requests.map((request) => request.path)).toContain('/api/donations/annualemail/42/2025');

    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Email Receipt (2024)' }));
    expect(
      await screen.findByText(
        'Annual donation receipt was emailed successfully! 2 receipts already issued, sent again to anne@example.org.',
      ),
    ).toBeInTheDocument();
  });

  it('sends the returned-brochure email', async () => {
    signIn();
    mockFetch({ 'GET /api/subscribers/42/brochure/email': () => jsonResponse({ queued: 1 }, 202) });
    const { user } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Send Returned Brochure Email' }));
    expect(await screen.findByText('Missing brochure email sent successfully!')).toBeInTheDocument();
  });

  it('offers the personal-data actions to Administrators only', async () => {
    signIn({ role: 'User' });
    mockFetch({});
    const { user } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    expect(await screen.findByRole('menuitem', { name: 'View History' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Download personal data' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Anonymise…' })).not.toBeInTheDocument();
  });

  it('downloads the personal data as the server names the ZIP', async () => {
    signIn();
    const zip = new Response('PK', {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': 'attachment; filename="personal-data-42-2026-05-02.zip"',
      },
    });
    const requests = mockFetch({ 'GET /api/subscribers/42/personal-data': () => zip });
    const { user, onBusyChange } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Download personal data' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['personal-data-42-2026-05-02.zip']));
    expect(requests[0]?.headers.get('accept')).toBe('application/zip');
    expect(onBusyChange).toHaveBeenLastCalledWith(false);
  });

  it('anonymises after a confirmation that asks the reason, then goes back to the search', async () => {
    signIn();
    const requests = mockFetch({ 'POST /api/subscribers/42/anonymise': () => emptyResponse() });
    const { user } = renderInDataRouter(
      <SubscriberActionsMenu subscriber={ZOE} currencySymbol="CHF" onBusyChange={vi.fn()} />,
      '/subscriber/42',
    );
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Anonymise…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Anonymise subscriber' });
    expect(within(dialog).getByText('This cannot be undone')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Anonymise' }));
    expect(await within(dialog).findByText('Give the reason for the anonymisation.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Reason/), 'ab');
    await user.click(within(dialog).getByRole('button', { name: 'Anonymise' }));
    expect(await within(dialog).findByText('At least 3 characters.')).toBeInTheDocument();
    expect(requests).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Reason/), 'c request by letter');
    await user.click(within(dialog).getByRole('button', { name: 'Anonymise' }));
    expect(await screen.findByText('Subscriber 42 was anonymised.')).toBeInTheDocument();
    expect(await screen.findByText('Subscribers list')).toBeInTheDocument();
    expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/api/subscribers/42/anonymise', { reason: 'abc request by letter' }],
    ]);
  });

  it('keeps the subscriber when the confirmation is dismissed, and shows a refused reason in the dialog', async () => {
    signIn();
    mockFetch({
      'POST /api/subscribers/42/anonymise': () =>
        problemResponse(400, 'validation.failed', {
          errors: [{ path: 'reason', message: 'The text cannot contain a NUL character.' }],
        }),
    });
    const { user } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Anonymise…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Anonymise subscriber' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Asked by phone');
    await user.click(within(dialog).getByRole('button', { name: 'Anonymise' }));
    expect(await within(dialog).findByText('The text cannot contain a NUL character.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep the subscriber' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens donations and sales with the subscriber id, names and currency symbol', async () => {
    mockFetch({});
    const { user } = renderInDataRouter(
      <SubscriberActionsMenu subscriber={ZOE} currencySymbol="CHF" onBusyChange={vi.fn()} />,
      '/subscriber/42',
    );
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'View Donations' }));
    expect(await screen.findByText('Donations of 42 Zoé Dupont CHF')).toBeInTheDocument();
  });
});
