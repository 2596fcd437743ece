import type { DonationListItem } from '@back-office/contract/donations';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { DonationReceiptMenu } from './donation-receipt-menu.tsx';

const withEmail: DonationListItem = {
  id: 31,
  hasEmail: true,
  subscriberId: 12,
  subscriberName: 'Jean Dupont',
  amount: 125.5,
  currencyName: 'EURO',
  currencySymbol: '€',
  dateAdded: '2025-03-01',
  notes: '',
  postCode: '75011',
  receiptNumber: null,
};
const withoutEmail: DonationListItem = { ...withEmail, id: 32, hasEmail: false };

/** The names the browser was asked to save files under. */
let savedNames: string[] = [];

beforeEach(() => {
  savedNames = [];
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL = () => 'blob:receipt';
      static override revokeObjectURL = () => {};
    },
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    savedNames.push(this.download);
  });
});

describe('DonationReceiptMenu (part 2 §2.4 Receipt dropdown)', () => {
  it('offers Download and Email when the donor has an email address', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<DonationReceiptMenu donation={withEmail} />);
    await user.click(screen.getByRole('button', { name: 'Receipt' }));
    expect(await screen.findByRole('menuitem', { name: 'Download' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Email' })).toBeInTheDocument();
  });

  it('offers only Download when the donor has none', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<DonationReceiptMenu donation={withoutEmail} />);
    await user.click(screen.getByRole('button', { name: 'Receipt' }));
    expect(await screen.findByRole('menuitem', { name: 'Download' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Email' })).not.toBeInTheDocument();
  });

  it('downloads the PDF under the name the server gives', async () => {
    signIn();
    mockFetch({
      'GET /api/donations/receipt/31': () =>
        new Response('%PDF-1.7', {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="donation-31-receipt.pdf"',
          },
        }),
    });
    const { user } = renderWithProviders(<DonationReceiptMenu donation={withEmail} />);
    await user.click(screen.getByRole('button', { name: 'Receipt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['donation-31-receipt.pdf']));
  });

  it('emails the receipt and says so, or says what failed', async () => {
    signIn();
    let fail = false;
    mockFetch({
      'GET /api/donations/email/31': () =>
        fail ? problemResponse(500, 'internal') : jsonResponse({ queued: 1 }),
    });
    const { user } = renderWithProviders(<DonationReceiptMenu donation={withEmail} />);
    await user.click(screen.getByRole('button', { name: 'Receipt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Email' }));
    expect(await screen.findByText('Donation receipt was emailed successfully!')).toBeInTheDocument();

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Receipt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Email' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem emailing the donation receipt. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('says when a gift cannot be converted for lack of an exchange rate', async () => {
    signIn();
    mockFetch({
      'GET /api/donations/receipt/31': () => problemResponse(409, 'exchange_rates.missing'),
    });
    const { user } = renderWithProviders(<DonationReceiptMenu donation={withEmail} />);
    await user.click(screen.getByRole('button', { name: 'Receipt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the donation receipt. A gift is in another currency and no exchange rate is known for its day: add it under Exchange rates. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(savedNames).toEqual([]);
  });
});
