import type { DuplicatePair, DuplicatePairs } from '@back-office/contract/duplicates';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emptyResponse, jsonResponse, mockFetch, type RecordedRequest } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { DUPLICATES_POLL_MS } from '../api/get-duplicate-pairs.ts';
import { DuplicatesScreen } from './duplicates-screen.tsx';

const GET = 'GET /api/subscribers/duplicates';
const SCAN = 'POST /api/subscribers/duplicates/scan';

/** Pair `n`: subscribers 2n-1 and 2n, best first. */
function pair(n: number): DuplicatePair {
  return {
    aId: 2 * n - 1,
    bId: 2 * n,
    aName: `Zoé Dupont${n}`,
    bName: `Zoe Dupont${n}`,
    score: n === 1 ? 0.85 : 0.4,
    reasons: n === 1 ? ['email', 'name+postcode'] : ['phone'],
  };
}

/** The answer to a page of `count` pairs. */
function pagesOf(count: number, rest: Omit<DuplicatePairs, 'count' | 'models'>) {
  const all = Array.from({ length: count }, (_, index) => pair(index + 1));
  return (request: RecordedRequest): Response => {
    const from = Number(request.query.get('listfrom'));
    const length = Number(request.query.get('listlength'));
    return jsonResponse({ ...rest, count, models: all.slice(from - 1, from - 1 + length) });
  };
}

async function elapse(ms = DUPLICATES_POLL_MS) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

describe('DuplicatesScreen', () => {
  it('starts a scan, says it is searching, polls until it is done, then lists the pairs', async () => {
    signIn();
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
      shouldAdvanceTime: true,
    });
    const before: DuplicatePairs = { count: 0, models: [], scannedAt: null, scanning: false };
    const running: DuplicatePairs = { ...before, scanning: true };
    const done = pagesOf(2, { scannedAt: '2026-03-07T12:05:00.000Z', scanning: false });
    let answers: ((request: RecordedRequest) => Response)[] = [() => jsonResponse(before)];
    const requests = mockFetch({
      [GET]: (request) => (answers.length > 1 ? (answers.shift() ?? done) : (answers[0] ?? done))(request),
      [SCAN]: () => {
        answers = [() => jsonResponse(running), () => jsonResponse(running), done];
        return emptyResponse(202);
      },
    });
    const { user } = renderWithProviders(<DuplicatesScreen />, { path: '/duplicates' });
    expect(await screen.findByText('No search for duplicates has been run yet.')).toBeInTheDocument();
    expect(
      screen.getByText('Search for duplicates to list the subscribers who look like the same person.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Search for duplicates' }));
    const searching = await screen.findByRole('button', { name: 'Searching…' });
    expect(searching).toBeDisabled();
    expect(screen.getByText(/Searching the whole register/)).toBeInTheDocument();
    const gets = () => requests.filter((request) => request.method === 'GET');
    const getsAfterScan = gets().length;

    await elapse();
    expect(gets().length).toBeGreaterThan(getsAfterScan);
    expect(screen.getByRole('button', { name: 'Searching…' })).toBeInTheDocument();
    await elapse();
    const table = await screen.findByRole('table', { name: 'Likely duplicates' });
    expect(screen.getByRole('button', { name: 'Search for duplicates' })).toBeEnabled();
    expect(
      screen.getByText(/^Last search: 07\/03\/2026 \d{2}:05\. 2 pairs of likely duplicates\.$/),
    ).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Subscriber', 'Looks like', 'Score', 'Why', 'Actions']);
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(
      within(row).getByRole('link', { name: 'Zoé Dupont1 (no. 1) (opens in a new tab)' }),
    ).toHaveAttribute('href', '/subscriber/1');
    expect(within(row).getByRole('link', { name: /^Zoe Dupont1 \(no\. 2\)/ })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(row).toHaveTextContent(/85\s%/);
    expect(row).toHaveTextContent('Same email, similar name and same postcode');
    expect(
      within(row).getByRole('link', { name: /^Merge… Zoé Dupont1 \(no\. 1\) and Zoe Dupont1/ }),
    ).toHaveAttribute('href', '/duplicates/merge?keep=1&merge=2');

    // The scan is over: no more polling.
    const getsAtEnd = gets().length;
    await elapse(5 * DUPLICATES_POLL_MS);
    expect(gets()).toHaveLength(getsAtEnd);
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('pages the pairs 50 at a time', async () => {
    signIn();
    const requests = mockFetch({
      [GET]: pagesOf(120, { scannedAt: '2026-03-07T12:05:00.000Z', scanning: false }),
    });
    const { user } = renderWithProviders(<DuplicatesScreen />, { path: '/duplicates' });
    const table = await screen.findByRole('table', { name: 'Likely duplicates' });
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    expect(screen.getByText(/120 pairs of likely duplicates/)).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Pages of the duplicates' });
    await user.click(within(pages).getByRole('button', { name: '3' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(21));
    expect(within(table).getByText('Zoé Dupont101 (no. 201)')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(within(table).getByText('Zoé Dupont51 (no. 101)')).toBeInTheDocument());
    expect(
      requests.map((request) => `${request.query.get('listfrom')}/${request.query.get('listlength')}`),
    ).toEqual(['1/50', '101/50', '51/50']);
  });
});
