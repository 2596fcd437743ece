import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { exportFile, recordSavedFiles, xlsxResponse } from '../../../testing/exports.ts';
import { emptyResponse, jsonResponse, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { EMPTY_SUBSCRIBER_FILTERS, SUBSCRIBER_FILTERS_STORAGE_KEY } from '../subscriber-filters.ts';
import { SubscribersSearch } from './subscribers-search.tsx';

const ROWS = [
  { id: 42, name: 'Mme Zoé Dupont', category: 'Donateurs', street: '12 rue du Lac', postCode: '1003' },
  { id: 43, name: 'Marc Dupont', category: '', street: '4 place Bellecour', postCode: '69002' },
];

const lookups = {
  'GET /api/ctries': () => jsonResponse([{ id: 11, name: 'Suisse' }]),
  'GET /api/pmethods': () => jsonResponse([{ id: 5, name: 'Chèque' }]),
  'GET /api/tags': () => jsonResponse([{ id: 7, name: 'Bénévole' }]),
  'GET /api/cats': () => jsonResponse([{ id: 3, name: 'Donateurs' }]),
};

/** The query of the last search request (read from the mocked fetch's calls). */
function lastSearch(): URLSearchParams {
  const urls = vi
    .mocked(fetch)
    .mock.calls.map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/subscribers/');
  const last = urls.at(-1);
  if (!last) throw new Error('no search was made');
  return last.searchParams;
}

describe('SubscribersSearch', () => {
  it('asks for criteria first, then searches with the spec query names and stores the filters', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/subscribers/': () => jsonResponse({ count: 2, countIsExact: true, models: ROWS }),
    });
    const { user } = renderWithProviders(<SubscribersSearch />);
    expect(screen.getByText('Please enter some search criteria.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Email Subscribers...' })).toBeDisabled();

    await user.type(screen.getByLabelText('Last Name'), 'Dupont');
    await user.type(screen.getByLabelText('Town'), 'Lau{Enter}');
    expect(await screen.findByText('2 rows')).toBeInTheDocument();
    const query = lastSearch();
    expect(Object.fromEntries(query)).toEqual({
      firstname: '',
      name: 'Dupont',
      assoc: '',
      tag: '',
      town: 'Lau',
      postcode: '',
      country: '',
      category: '',
      addedafter: '',
      addedbefore: '',
      pmeth: '',
      copies: '',
      status: '',
      listfrom: '1',
      listlength: '50',
    });
    const row = screen.getByText('Mme Zoé Dupont').closest('tr') as HTMLElement;
    expect(within(row).getByRole('link', { name: 'Mme Zoé Dupont' })).toHaveAttribute(
      'href',
      '/subscriber/42',
    );
    expect(within(row).getByRole('link', { name: 'View' })).toHaveAttribute('target', '_blank');
    expect(within(row).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/subscriber/42');
    expect(screen.getByRole('button', { name: 'Email Subscribers...' })).toBeEnabled();
    expect(JSON.parse(localStorage.getItem(SUBSCRIBER_FILTERS_STORAGE_KEY) ?? '{}')).toMatchObject({
      lastName: 'Dupont',
      town: 'Lau',
    });
  });

  it('says "about" before a count the server estimated', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/subscribers/': () => jsonResponse({ count: 250_000, countIsExact: false, models: ROWS }),
    });
    const { user } = renderWithProviders(<SubscribersSearch />);
    await user.type(screen.getByLabelText('Town'), 'Lyon{Enter}');
    // French number format: a narrow no-break space between thousands.
    expect(await screen.findByText(/^about 250\s000 rows$/)).toBeInTheDocument();
  });

  it('exports in the background when the search counted about 250 000 rows', async () => {
    signIn();
    const savedNames = recordSavedFiles();
    const requests = mockFetch({
      ...lookups,
      'GET /api/subscribers/': () => jsonResponse({ count: 250_000, countIsExact: false, models: ROWS }),
      // Already written when it answers, so no read is needed before the download.
      'POST /api/exports': () => jsonResponse(exportFile({ state: 'succeeded', cancellable: false }), 202),
      'GET /api/exports/7/file': () => xlsxResponse('subscribers-export-2025-03-07.xlsx'),
    });
    const { user } = renderWithProviders(<SubscribersSearch />);
    await user.type(screen.getByLabelText('Town'), 'Lyon{Enter}');
    expect(await screen.findByText(/^about 250\s000 rows$/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export...' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export All Details' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['subscribers-export-2025-03-07.xlsx']));
    const started = requests.find((request) => request.path === '/api/exports');
    expect(started?.body).toMatchObject({
      source: 'subscribers',
      query: { town: 'Lyon', emailsOnly: false },
    });
    expect(requests.some((request) => request.path === '/api/subscribers/export')).toBe(false);
  });

  it('sends the Mailing List Status as 0, 1 or 2', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/subscribers/': () => jsonResponse({ count: 0, countIsExact: true, models: [] }),
    });
    const { user } = renderWithProviders(<SubscribersSearch />);
    await user.click(screen.getByRole('combobox', { name: 'Mailing List Status' }));
    expect(screen.getByRole('option', { name: 'Included & Excluded' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Included Only' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Excluded Only' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No subscribers match the search criteria.')).toBeInTheDocument();
    expect(lastSearch().get('status')).toBe('2');
  });

  it('restores the stored filters on entry and searches with them; Clear empties fields and storage', async () => {
    signIn();
    localStorage.setItem(
      SUBSCRIBER_FILTERS_STORAGE_KEY,
      JSON.stringify({ ...EMPTY_SUBSCRIBER_FILTERS, lastName: 'Dupont', country: '11' }),
    );
    mockFetch({
      ...lookups,
      'GET /api/subscribers/': () => jsonResponse({ count: 2, countIsExact: true, models: ROWS }),
    });
    const { user } = renderWithProviders(<SubscribersSearch />);
    expect(screen.getByLabelText('Last Name')).toHaveValue('Dupont');
    expect(await screen.findByText('Marc Dupont')).toBeInTheDocument();
    expect(lastSearch().get('country')).toBe('11');
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('Suisse');

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByLabelText('Last Name')).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('');
    expect(localStorage.getItem(SUBSCRIBER_FILTERS_STORAGE_KEY)).toBeNull();
    expect(screen.getByText('Please enter some search criteria.')).toBeInTheDocument();
  });

  it('removes a subscriber in two steps and lowers the count', async () => {
    signIn();
    mockFetch({
      ...lookups,
      'GET /api/subscribers/': () => jsonResponse({ count: 2, countIsExact: true, models: ROWS }),
      'DELETE /api/subscribers/43': () => emptyResponse(204),
    });
    localStorage.setItem(
      SUBSCRIBER_FILTERS_STORAGE_KEY,
      JSON.stringify({ ...EMPTY_SUBSCRIBER_FILTERS, lastName: 'Dupont' }),
    );
    const { user } = renderWithProviders(<SubscribersSearch />);
    const row = (await screen.findByText('Marc Dupont')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(within(row).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(await screen.findByText("Subscriber 'Marc Dupont' was deleted successfully!")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Marc Dupont')).not.toBeInTheDocument());
    await vi.waitFor(() => expect(screen.getByText('1 rows')).toBeInTheDocument());
  });
});
