import { EXPORT_INLINE_ROW_LIMIT } from '@back-office/contract/exports';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SearchMatches } from '../../../entities/exports/index.ts';
import { backgroundExportClock, exportFile, xlsxResponse } from '../../../testing/exports.ts';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { EMPTY_DONATION_FILTERS } from '../api/search-donations.ts';
import { DonationsToolbar } from './donations-toolbar.tsx';

const FILTERS = { ...EMPTY_DONATION_FILTERS, addedAfter: '2024-01-01', amountMin: '100' };

/** The query every export of FILTERS for all subscribers sends, as the `GET …/export` query string writes it. */
const EXPORT_QUERY = {
  id: '',
  name: '',
  zip: '',
  addedafter: '2024-01-01',
  addedbefore: '',
  amountMin: '100',
  amountMax: '',
  isdebit: '0',
  country: '',
  category: '',
};

const DONATIONS_FILE = exportFile({ source: 'donations', fileName: 'donation-details-export.xlsx' });

const { savedNames, elapse } = backgroundExportClock();

async function exportWith(matches: SearchMatches, item: 'Export Donations' | 'Export Addresses') {
  const { user } = renderWithProviders(
    <DonationsToolbar
      exportInput={() => ({ filters: FILTERS, subscriberId: null, matches })}
      selectedCount={0}
      deleting={false}
      onDeleteSelected={() => {}}
    />,
  );
  await user.click(screen.getByRole('button', { name: 'Export' }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

const backgroundRoutes = {
  'POST /api/exports': () => jsonResponse({ ...DONATIONS_FILE, state: 'running' }, 202),
  'GET /api/exports/7': () => jsonResponse({ ...DONATIONS_FILE, state: 'succeeded', cancellable: false }),
  'GET /api/exports/7/file': () => xlsxResponse('donation-details-export-2025-03-07.xlsx'),
};

describe('DonationsToolbar export', () => {
  it('downloads the export itself, as before, when the search matched few enough rows', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/donations/export': () => xlsxResponse('donation-details-export.xlsx'),
    });
    await exportWith({ count: 1_200, countIsExact: true }, 'Export Donations');

    await vi.waitFor(() => expect(savedNames()).toEqual(['donation-details-export.xlsx']));
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/donations/export',
    ]);
  });

  it('exports in the background, with isdetailed, when the search matched more rows than the inline limit', async () => {
    signIn();
    const requests = mockFetch(backgroundRoutes);
    await exportWith({ count: EXPORT_INLINE_ROW_LIMIT + 1, countIsExact: true }, 'Export Addresses');

    expect(await screen.findByText('Preparing donation-details-export.xlsx')).toBeInTheDocument();
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/exports',
      body: { source: 'donations', query: { ...EXPORT_QUERY, isdetailed: false } },
    });
    await elapse();
    expect(await screen.findByText('donation-details-export-2025-03-07.xlsx is ready')).toBeInTheDocument();
    expect(savedNames()).toEqual(['donation-details-export-2025-03-07.xlsx']);
  });

  it('exports in the background when the count is an estimate', async () => {
    signIn();
    const requests = mockFetch(backgroundRoutes);
    await exportWith({ count: 15_000, countIsExact: false }, 'Export Donations');

    expect(await screen.findByText('Preparing donation-details-export.xlsx')).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({ source: 'donations', query: { ...EXPORT_QUERY, isdetailed: true } });
    await elapse();
    await vi.waitFor(() => expect(savedNames()).toEqual(['donation-details-export-2025-03-07.xlsx']));
  });

  it('goes to the background with the same query when the server finds the export too large (409)', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/donations/export': () => problemResponse(409, 'exports.too_large'),
      ...backgroundRoutes,
    });
    await exportWith({ count: 30_000, countIsExact: true }, 'Export Donations');

    expect(await screen.findByText('Preparing donation-details-export.xlsx')).toBeInTheDocument();
    const inlineUrl = vi.mocked(fetch).mock.calls[0]?.[0];
    const inlineQuery = new URL(String(inlineUrl), 'http://localhost').searchParams;
    expect(Object.fromEntries(inlineQuery)).toEqual({ ...EXPORT_QUERY, isdetailed: 'true' });
    expect(requests[1]?.body).toEqual({ source: 'donations', query: { ...EXPORT_QUERY, isdetailed: true } });
    await elapse();
    await vi.waitFor(() => expect(savedNames()).toEqual(['donation-details-export-2025-03-07.xlsx']));
  });

  it("says why when the background export failed, in the screen's error sentence", async () => {
    signIn();
    mockFetch({
      'POST /api/exports': () => jsonResponse({ ...DONATIONS_FILE, state: 'running' }, 202),
      'GET /api/exports/7': () =>
        jsonResponse({
          ...DONATIONS_FILE,
          state: 'failed',
          error: 'The worker stopped.',
          cancellable: false,
        }),
    });
    await exportWith({ count: 15_000, countIsExact: false }, 'Export Donations');
    expect(await screen.findByText('Preparing donation-details-export.xlsx')).toBeInTheDocument();

    await elapse();
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the donation receipt. The worker stopped. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(savedNames()).toEqual([]);
  });
});
