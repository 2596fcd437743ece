import type { DonationListItem } from '@back-office/contract/donations';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { localIsoDate } from '../../../lib/download.ts';
import { deferred, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { DonationFormModal } from './donation-form-modal.tsx';

const created: DonationListItem = {
  id: 31,
  hasEmail: true,
  subscriberId: 12,
  subscriberName: 'Jean Dupont',
  amount: 1234.5,
  currencyName: 'Swiss Francs',
  currencySymbol: 'CHF',
  dateAdded: '2025-03-01',
  notes: 'Merci',
  postCode: '1200',
  receiptNumber: null,
};

describe('DonationFormModal (part 2 §2.4 Add donation, §5, §8)', () => {
  it("prefixes the amount with the subscriber's currency and refuses a minus sign", async () => {
    mockFetch({});
    const { user } = renderWithProviders(
      <DonationFormModal opened subscriber={{ id: 12, symbol: 'CHF' }} onClose={vi.fn()} />,
    );
    expect(screen.getByRole('dialog', { name: 'Add New Donation' })).toBeInTheDocument();
    const amount = screen.getByLabelText('Amount');
    await user.type(amount, '-1 234,5');
    expect(amount).toHaveValue('1 234,5');
    await user.tab();
    expect(amount).toHaveValue('CHF 1.234,50');
    expect(screen.getByLabelText('Donation Date')).toHaveValue(localIsoDate().split('-').reverse().join('/'));
    expect(screen.getByLabelText('Notes to appear on receipt')).toHaveAttribute('rows', '5');
  });

  it('says Amount is required once the amount is left empty', async () => {
    mockFetch({});
    const { user } = renderWithProviders(
      <DonationFormModal opened subscriber={{ id: 12, symbol: '€' }} onClose={vi.fn()} />,
    );
    await user.click(screen.getByLabelText('Amount'));
    await user.tab();
    expect(await screen.findByText('Amount is required')).toBeInTheDocument();
    expect(screen.queryByText('Please complete all the information!')).not.toBeInTheDocument();
  });

  it('after an invalid submit shows both messages and sends nothing', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(
      <DonationFormModal opened subscriber={{ id: 12, symbol: '€' }} onClose={vi.fn()} />,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please complete all the information!')).toBeInTheDocument();
    expect(screen.getByText('Amount is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('creates the donation, keeps Save busy until the server answers, then says so and closes', async () => {
    signIn();
    const answer = deferred<Response>();
    const requests = mockFetch({ 'POST /api/donations': () => answer.promise });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <DonationFormModal opened subscriber={{ id: 12, symbol: 'CHF' }} onClose={onClose} />,
    );
    await user.type(screen.getByLabelText('Amount'), '1.234,50');
    await user.type(screen.getByLabelText('Notes to appear on receipt'), 'Merci');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toEqual({
      subid: 12,
      amount: 1234.5,
      donationDate: localIsoDate(),
      notes: 'Merci',
    });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('data-loading');
    expect(onClose).not.toHaveBeenCalled();

    answer.resolve(jsonResponse(created, 201));
    expect(await screen.findByText("Donation for '1 234,50' was created successfully!")).toBeInTheDocument();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('names the refused field in a banner, focuses it, and saves again at the first click', async () => {
    signIn();
    let calls = 0;
    const requests = mockFetch({
      'POST /api/donations': () => {
        calls += 1;
        return calls === 1
          ? problemResponse(400, 'donations.future_date', {
              errors: [{ path: 'donationDate', message: 'The donation date cannot be in the future.' }],
            })
          : jsonResponse(created, 201);
      },
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <DonationFormModal opened subscriber={{ id: 12, symbol: '€' }} onClose={onClose} />,
    );
    await user.type(screen.getByLabelText('Amount'), '10');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const banner = await screen.findByRole('alert', { name: 'Not saved: please correct' });
    expect(banner).toHaveTextContent('Donation Date: The donation date cannot be in the future.');
    expect(screen.getByLabelText('Donation Date')).toHaveFocus();
    expect(screen.getByLabelText('Donation Date')).toHaveAttribute('aria-invalid', 'true');
    expect(onClose).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(2);
  });

  it('says Houston ... creating a donation when the server fails', async () => {
    signIn();
    mockFetch({ 'POST /api/donations': () => problemResponse(500, 'internal') });
    const { user } = renderWithProviders(
      <DonationFormModal opened subscriber={{ id: 12, symbol: '€' }} onClose={vi.fn()} />,
    );
    await user.type(screen.getByLabelText('Amount'), '10');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem creating a donation. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });
});
