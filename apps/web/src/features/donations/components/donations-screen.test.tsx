import type { DonationListItem } from '@back-office/contract/donations';
import { screen, within } from '@testing-library/react';
import type { Mock } from 'vitest';
import { describe, expect, it, vi } from 'vitest';
import { exportFile, recordSavedFiles, xlsxResponse } from '../../../testing/exports.ts';
import { emptyResponse, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { DonationsScreen, type DonationsSubscriber } from './donations-screen.tsx';

const jean: DonationsSubscriber = { id: 12, firstName: 'Jean', lastName: 'Dupont', symbol: '€' };

function donation(overrides: Partial<DonationListItem>): DonationListItem {
  return {
    id: 1,
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
    ...overrides,
  };
}

const first = donation({ id: 1, amount: 125.5, dateAdded: '2025-03-01' });
const second = donation({ id: 2, amount: 40, dateAdded: '2025-02-01', receiptNumber: 17 });
const third = donation({ id: 3, amount: 1300, dateAdded: '2025-01-01', saleId: 41, saleRef: 8 });

const lookups = {
  'GET /api/ctries': () =>
    jsonResponse([
      { id: 2, name: 'Suisse', order: 100 },
      { id: 1, name: 'France', order: 100 },
    ]),
  'GET /api/cats': () => jsonResponse([{ id: 5, name: 'Donateur' }]),
};

/** The query strings of the `GET /api/donations` calls made so far. */
function searchQueries(): URLSearchParams[] {
  return (fetch as unknown as Mock).mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/donations')
    .map((url) => url.searchParams);
}

/** A field by its label (a select's label also names its list of options, hence the first). */
function field(label: string): HTMLElement | undefined {
  return screen.queryAllByLabelText(label)[0];
}

/** The row holding `text`, once drawn: on a busy machine the rows can come a frame after the count. */
async function rowOf(text: string): Promise<HTMLElement> {
  const row = (await screen.findAllByText(text))[0]?.closest('tr');
  if (!row) throw new Error(`No row holds ${text}`);
  return row;
}

describe('DonationsScreen without a subscriber (part 2 §2.4)', () => {
  it('offers every search field and asks for criteria before any search', async () => {
    signIn();
    mockFetch(lookups);
    renderWithProviders(<DonationsScreen subscriber={null} />);
    expect(screen.getByRole('heading', { name: 'Donations' })).toBeInTheDocument();
    for (const label of [
      'Last Name',
      'Postcode',
      'Payment Method',
      'Country',
      'Added Before',
      'Added After',
      'Amount greater than',
      'Amount less than',
      'Category',
    ]) {
      expect(field(label)).toBeInTheDocument();
    }
    expect(screen.getByText('Please enter some search criteria.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Selected Donations' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Add New Donation' })).not.toBeInTheDocument();
    expect(searchQueries()).toHaveLength(0);
  });

  it('searches on Enter with every filter sent, shows the rows and their count', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/donations': () =>
        jsonResponse({ count: 3, countIsExact: true, models: [first, second, third] }),
    });
    const { user } = renderWithProviders(<DonationsScreen subscriber={null} />);
    await user.type(screen.getByLabelText('Amount greater than'), '100');
    await user.type(screen.getByLabelText('Last Name'), 'Dupont{Enter}');

    expect(await screen.findByText('3 rows')).toBeInTheDocument();
    const [query] = searchQueries();
    expect(Object.fromEntries(query ?? [])).toEqual({
      id: '',
      name: 'Dupont',
      zip: '',
      addedafter: '',
      addedbefore: '',
      amountMin: '100',
      amountMax: '',
      isdebit: '0',
      country: '',
      category: '',
      listfrom: '1',
      listlength: '50',
    });
    const row = await rowOf('125,50 €');
    expect(within(row).getByRole('link', { name: 'Jean Dupont' })).toHaveAttribute('href', '/subscriber/12');
    expect(within(row).getByText('2025-03-01')).toBeInTheDocument();
    expect(within(await rowOf('40,00 €')).getByText('n° 17')).toBeInTheDocument();
    expect(screen.getByText(/1\s300,00 €/)).toBeInTheDocument();
    // The gift of a sale names the sale; the others do not.
    expect(within(await rowOf('2025-01-01')).getByText('· from sale n° 8')).toBeInTheDocument();
    expect(within(row).queryByText(/from sale/)).not.toBeInTheDocument();
  });

  it('says no donations match when the search finds none', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/donations': () => jsonResponse({ count: 0, countIsExact: true, models: [] }),
    });
    const { user } = renderWithProviders(<DonationsScreen subscriber={null} />);
    await user.type(screen.getByLabelText('Postcode'), '99999{Enter}');
    expect(await screen.findByText('No donations match the search criteria.')).toBeInTheDocument();
  });
});

describe('DonationsScreen for one subscriber (part 2 §2.4, §4)', () => {
  it('links the title to the subscriber, loads at once, and hides name, postcode, payment and country', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/donations': () => jsonResponse({ count: 1, countIsExact: true, models: [first] }),
    });
    const { user } = renderWithProviders(<DonationsScreen subscriber={jean} />);
    const heading = screen.getByRole('heading', { name: 'Donations for Jean Dupont' });
    expect(within(heading).getByRole('link', { name: 'Jean Dupont' })).toHaveAttribute(
      'href',
      '/subscriber/12',
    );
    expect(await screen.findByText('1 rows')).toBeInTheDocument();
    expect(searchQueries()[0]?.get('id')).toBe('12');

    await user.click(screen.getByRole('button', { name: 'Show or hide the search filters' }));
    for (const shown of [
      'Added Before',
      'Added After',
      'Amount greater than',
      'Amount less than',
      'Category',
    ]) {
      expect(field(shown)).toBeInTheDocument();
    }
    for (const hidden of ['Last Name', 'Postcode', 'Payment Method', 'Country']) {
      expect(field(hidden)).toBeUndefined();
    }
    expect(screen.getByRole('button', { name: 'Add New Donation' })).toBeInTheDocument();
  });

  it("exports the subscriber's donations in the background when the list counts more than the inline limit", async () => {
    signIn();
    const savedNames = recordSavedFiles();
    const requests = mockFetch({
      ...lookups,
      'GET /api/donations': () => jsonResponse({ count: 60_000, countIsExact: true, models: [first] }),
      // Already written when it answers, so no read is needed before the download.
      'POST /api/exports': () =>
        jsonResponse(exportFile({ source: 'donations', state: 'succeeded', cancellable: false }), 202),
      'GET /api/exports/7/file': () => xlsxResponse('donation-details-export-2025-03-07.xlsx'),
    });
    const { user } = renderWithProviders(<DonationsScreen subscriber={jean} />);
    expect(await screen.findByText(/^60\s000 rows$/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export Donations' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['donation-details-export-2025-03-07.xlsx']));
    const started = requests.find((request) => request.path === '/api/exports');
    expect(started?.body).toMatchObject({ source: 'donations', query: { id: '12', isdetailed: true } });
    expect(requests.some((request) => request.path === '/api/donations/export')).toBe(false);
  });

  it('says the subscriber has no donations yet', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/donations': () => jsonResponse({ count: 0, countIsExact: true, models: [] }),
    });
    renderWithProviders(<DonationsScreen subscriber={jean} />);
    expect(await screen.findByText('No donations from this subscriber yet.')).toBeInTheDocument();
  });

  it('deletes the selected donations one by one and reports the deleted and the refused ones', async () => {
    signIn();
    const requests = mockFetch({
      ...lookups,
      'GET /api/donations': () =>
        jsonResponse({ count: 3, countIsExact: true, models: [first, second, third] }),
      'DELETE /api/donations/1': () => emptyResponse(204),
      'DELETE /api/donations/2': () =>
        problemResponse(409, 'donations.receipted', {
          detail: 'This donation is on tax receipt n° 17, already issued: it cannot be deleted.',
        }),
    });
    const { user } = renderWithProviders(<DonationsScreen subscriber={jean} />);
    await screen.findByText('3 rows');
    const deleteSelected = screen.getByRole('button', { name: 'Delete Selected Donations' });
    expect(deleteSelected).toBeDisabled();
    await user.click(within(await rowOf('125,50 €')).getByRole('checkbox'));
    await user.click(within(await rowOf('40,00 €')).getByRole('checkbox'));
    expect(deleteSelected).toBeEnabled();
    await user.click(deleteSelected);
    const dialog = screen.getByRole('dialog', { name: 'Delete Selected Donations' });
    expect(
      within(dialog).getByText('Delete the 2 selected donations? This cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'CONFIRM DELETE' }));

    expect(
      await screen.findByText(
        'Houston - there was a problem deleting a donation. 1 of the 2 selected donations was deleted. ' +
          'Not deleted: Jean Dupont, 40,00 € on 2025-02-01 (This donation is on tax receipt n° 17, already issued: ' +
          'it cannot be deleted). Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      '/api/donations/1',
      '/api/donations/2',
    ]);
    await vi.waitFor(() => expect(screen.queryByText('125,50 €')).not.toBeInTheDocument());
    expect(screen.getByText('2 rows')).toBeInTheDocument();
    // The refused one stays selected.
    expect(within(await rowOf('40,00 €')).getByRole('checkbox')).toBeChecked();
  });

  it('says how many were deleted when every selected donation was', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/donations': () =>
        jsonResponse({ count: 3, countIsExact: true, models: [first, second, third] }),
      'DELETE /api/donations/1': () => emptyResponse(204),
      'DELETE /api/donations/3': () => emptyResponse(204),
    });
    const { user } = renderWithProviders(<DonationsScreen subscriber={jean} />);
    await screen.findByText('3 rows');
    await user.click(within(await rowOf('125,50 €')).getByRole('checkbox'));
    await user.click(within(await rowOf('1 300,00 €')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Delete Selected Donations' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Selected Donations' })).getByRole('button', {
        name: 'CONFIRM DELETE',
      }),
    );
    expect(await screen.findByText('2 donations were deleted successfully!')).toBeInTheDocument();
    expect(await screen.findByText('1 rows')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Selected Donations' })).toBeDisabled();
  });

  it("removes one row in two steps, and shows the server's reason when a receipt covers it", async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/donations': () => jsonResponse({ count: 2, countIsExact: true, models: [first, second] }),
      'DELETE /api/donations/1': () => emptyResponse(204),
      'DELETE /api/donations/2': () =>
        problemResponse(409, 'donations.receipted', {
          detail: 'This donation is on tax receipt n° 17, already issued: it cannot be deleted.',
        }),
    });
    const { user } = renderWithProviders(<DonationsScreen subscriber={jean} />);
    await screen.findByText('2 rows');
    await user.click(within(await rowOf('40,00 €')).getByRole('button', { name: 'Remove' }));
    await user.click(within(await rowOf('40,00 €')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem deleting a donation. This donation is on tax receipt n° 17, already issued: ' +
          'it cannot be deleted. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(within(await rowOf('40,00 €')).getByRole('button', { name: 'Remove' })).toBeInTheDocument();

    await user.click(within(await rowOf('125,50 €')).getByRole('button', { name: 'Remove' }));
    await user.click(within(await rowOf('125,50 €')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText("Donation for '125,50 (€)' was deleted successfully!"),
    ).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('125,50 €')).not.toBeInTheDocument());
  });
});
