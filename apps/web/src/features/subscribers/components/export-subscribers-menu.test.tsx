import { EXPORT_INLINE_ROW_LIMIT } from '@back-office/contract/exports';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SearchMatches } from '../../../entities/exports/index.ts';
import { backgroundExportClock, exportFile, xlsxResponse } from '../../../testing/exports.ts';
import { deferred, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { EMPTY_SUBSCRIBER_FILTERS } from '../subscriber-filters.ts';
import { ExportSubscribersMenu } from './export-subscribers-menu.tsx';

const FILTERS = { ...EMPTY_SUBSCRIBER_FILTERS, lastName: 'Dupont', town: 'Lyon' };

/** The query every export of FILTERS sends, as the `GET …/export` query string writes it. */
const EXPORT_QUERY = {
  firstname: '',
  name: 'Dupont',
  assoc: '',
  town: 'Lyon',
  postcode: '',
  tag: '',
  country: '',
  category: '',
  pmeth: '',
  copies: '',
  status: '',
  addedafter: '',
  addedbefore: '',
};

const { savedNames, elapse } = backgroundExportClock();

/** The full addresses fetched so far (path and query). */
function requestedUrls(): string[] {
  return vi.mocked(fetch).mock.calls.map(([input]) => String(input));
}

async function exportWith(matches: SearchMatches, item: 'Export All Details' | 'Export Email Addresses') {
  const { user } = renderWithProviders(<ExportSubscribersMenu filters={FILTERS} matches={matches} />);
  await user.click(screen.getByRole('button', { name: 'Export...' }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

const backgroundRoutes = {
  'POST /api/exports': () => jsonResponse(exportFile({ state: 'running' }), 202),
  'GET /api/exports/7': () => jsonResponse(exportFile({ state: 'succeeded', cancellable: false })),
  'GET /api/exports/7/file': () => xlsxResponse('subscribers-export-2025-03-07.xlsx'),
};

/** The menu on a screen the user can leave (the menu unmounts) while its export goes on. */
function LeavableScreen() {
  const [shown, setShown] = useState(true);
  if (!shown) return <p>Another screen</p>;
  return (
    <>
      <button type="button" onClick={() => setShown(false)}>
        Leave
      </button>
      <ExportSubscribersMenu filters={FILTERS} matches={{ count: 80_000, countIsExact: true }} />
    </>
  );
}

describe('ExportSubscribersMenu', () => {
  it('downloads the export itself, as before, when the search matched few enough rows', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/subscribers/export': () => xlsxResponse('subscribers-export.xlsx'),
    });
    await exportWith({ count: EXPORT_INLINE_ROW_LIMIT, countIsExact: true }, 'Export Email Addresses');

    await vi.waitFor(() => expect(savedNames()).toEqual(['subscribers-export.xlsx']));
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/subscribers/export',
    ]);
    const query = new URL(requestedUrls()[0] ?? '', 'http://localhost').searchParams;
    expect(Object.fromEntries(query)).toEqual({ ...EXPORT_QUERY, emailsOnly: 'true' });
  });

  it('exports in the background when the search matched more rows than the inline limit', async () => {
    signIn();
    const read = deferred<Response>();
    const requests = mockFetch({ ...backgroundRoutes, 'GET /api/exports/7': () => read.promise });
    await exportWith({ count: EXPORT_INLINE_ROW_LIMIT + 1, countIsExact: true }, 'Export All Details');

    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/exports',
      body: { source: 'subscribers', query: { ...EXPORT_QUERY, emailsOnly: false } },
    });
    // Busy while the file is being written.
    expect(screen.getByRole('button', { name: 'Export...' })).toBeDisabled();

    await elapse();
    read.resolve(jsonResponse(exportFile({ state: 'succeeded', cancellable: false })));
    expect(await screen.findByText('subscribers-export-2025-03-07.xlsx is ready')).toBeInTheDocument();
    expect(savedNames()).toEqual(['subscribers-export-2025-03-07.xlsx']);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/exports',
      'GET /api/exports/7',
      'GET /api/exports/7/file',
    ]);
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Export...' })).toBeEnabled());
  });

  it('exports in the background when the count is an estimate', async () => {
    signIn();
    const requests = mockFetch(backgroundRoutes);
    await exportWith({ count: 12_000, countIsExact: false }, 'Export Email Addresses');

    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/exports',
      body: { source: 'subscribers', query: { ...EXPORT_QUERY, emailsOnly: true } },
    });
    await elapse();
    await vi.waitFor(() => expect(savedNames()).toEqual(['subscribers-export-2025-03-07.xlsx']));
  });

  it('goes to the background with the same query when the server finds the export too large (409)', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/subscribers/export': () =>
        problemResponse(409, 'exports.too_large', {
          detail: 'More than 50000 rows: export in the background.',
        }),
      ...backgroundRoutes,
    });
    await exportWith({ count: 40_000, countIsExact: true }, 'Export All Details');

    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/subscribers/export',
      'POST /api/exports',
    ]);
    const inlineQuery = new URL(requestedUrls()[0] ?? '', 'http://localhost').searchParams;
    const background = requests[1]?.body as { source: string; query: Record<string, unknown> };
    expect(background.source).toBe('subscribers');
    expect(
      Object.fromEntries(Object.entries(background.query).map(([key, value]) => [key, String(value)])),
    ).toEqual(Object.fromEntries(inlineQuery));

    await elapse();
    await vi.waitFor(() => expect(savedNames()).toEqual(['subscribers-export-2025-03-07.xlsx']));
    expect(screen.queryByText(/Houston/)).not.toBeInTheDocument();
  });

  it("says why when the background export failed, in the screen's error sentence", async () => {
    signIn();
    mockFetch({
      'POST /api/exports': () => jsonResponse(exportFile({ state: 'running' }), 202),
      'GET /api/exports/7': () =>
        jsonResponse(
          exportFile({ state: 'failed', error: 'The export file could not be written.', cancellable: false }),
        ),
    });
    await exportWith({ count: 80_000, countIsExact: true }, 'Export All Details');
    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();

    await elapse();
    expect(
      await screen.findByText(
        'Houston - there was a problem exporting the subscribers. The export file could not be written. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(savedNames()).toEqual([]);
  });

  it('still says so when a background export fails after the screen was left', async () => {
    signIn();
    const read = deferred<Response>();
    mockFetch({
      'POST /api/exports': () => jsonResponse(exportFile({ state: 'running' }), 202),
      'GET /api/exports/7': () => read.promise,
    });
    const { user } = renderWithProviders(<LeavableScreen />);
    await user.click(screen.getByRole('button', { name: 'Export...' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export All Details' }));
    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(screen.queryByRole('button', { name: 'Export...' })).not.toBeInTheDocument();
    await elapse();
    read.resolve(
      jsonResponse(exportFile({ state: 'failed', error: 'The disk is full.', cancellable: false })),
    );
    expect(
      await screen.findByText(
        'Houston - there was a problem exporting the subscribers. The disk is full. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });
});
