import { focusManager, useMutation } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { DASHBOARD_REFRESH_MS } from '../api/get-low-stock-products.ts';
import { Dashboard } from './dashboard.tsx';

const DASHBOARD_ERROR =
  'Houston - there was a problem getting the data for the dashboard. Please try again or contact your system administrator.';

/** Any change made in the tab: a mutation that succeeds. */
function ChangeSomething() {
  const change = useMutation({ mutationFn: async () => 'saved' });
  return (
    <button type="button" onClick={() => change.mutate()}>
      Change
    </button>
  );
}

describe('Dashboard', () => {
  it('says No products currently low in stock. when nothing is low', async () => {
    signIn();
    mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
    });
    renderWithProviders(<Dashboard />);
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('No products currently low in stock.')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Low Stock Products' });
    expect(within(table).getByRole('columnheader', { name: 'Product' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Current Stock' })).toBeInTheDocument();
  });

  it('lists the low-stock products with their stock', async () => {
    signIn();
    mockFetch({
      'GET /api/dash/prods': () =>
        jsonResponse({
          keyedData: [
            { key: 'Agenda été', value: 2 },
            { key: 'Calendrier', value: 0 },
          ],
        }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
    });
    renderWithProviders(<Dashboard />);
    const row = (await screen.findByText('Agenda été')).closest('tr');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByText('2')).toBeInTheDocument();
    expect(screen.getByText('Calendrier')).toBeInTheDocument();
    expect(screen.queryByText('No products currently low in stock.')).not.toBeInTheDocument();
  });

  it('titles the chart Active Subscribers with the total in French format', async () => {
    signIn();
    mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () =>
        jsonResponse({ labels: ['France', 'Suisse', 'Belgique'], data: [1200, 34, 5] }),
    });
    renderWithProviders(<Dashboard />);
    expect(screen.getByRole('heading', { name: 'Active Subscribers' })).toBeInTheDocument();
    const total = await screen.findByLabelText('Total active subscribers');
    // fr-FR groups thousands with a narrow no-break space.
    expect(total).toHaveTextContent('Total: 1\u202f239', { normalizeWhitespace: false });
  });

  it('shows one error toast, spelt correctly, when the data cannot be loaded', async () => {
    signIn();
    mockFetch({
      'GET /api/dash/prods': () => problemResponse(403, 'auth.forbidden'),
      'GET /api/dash/subs': () => problemResponse(403, 'auth.forbidden'),
    });
    renderWithProviders(<Dashboard />);
    expect(await screen.findByText(DASHBOARD_ERROR)).toBeInTheDocument();
    expect(screen.getAllByText(DASHBOARD_ERROR)).toHaveLength(1);
  });

  it('reloads both widgets every 30 seconds and stops once the screen is left', async () => {
    vi.useFakeTimers({
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
      shouldAdvanceTime: true,
    });
    signIn();
    const requests = mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
    });
    const { unmount } = renderWithProviders(<Dashboard />);
    await screen.findByText('No products currently low in stock.');
    expect(requests).toHaveLength(2);

    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    await vi.waitFor(() => expect(requests).toHaveLength(4));
    expect(
      requests
        .slice(2)
        .map((request) => request.path)
        .sort(),
    ).toEqual(['/api/dash/prods', '/api/dash/subs']);

    unmount();
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS * 2));
    expect(requests).toHaveLength(4);
  });

  it('reloads both widgets when the window regains focus, even within 30 seconds', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
    });
    renderWithProviders(<Dashboard />);
    await screen.findByText('No products currently low in stock.');
    expect(requests).toHaveLength(2);
    try {
      act(() => focusManager.setFocused(false));
      act(() => focusManager.setFocused(true));
      await vi.waitFor(() => expect(requests).toHaveLength(4));
    } finally {
      focusManager.setFocused(undefined);
    }
  });

  it('reloads both widgets after a change made in the same tab', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
    });
    const { user } = renderWithProviders(
      <>
        <Dashboard />
        <ChangeSomething />
      </>,
    );
    await screen.findByText('No products currently low in stock.');
    expect(requests).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Change' }));
    await vi.waitFor(() => expect(requests).toHaveLength(4));
    expect(
      requests
        .slice(2)
        .map((request) => request.path)
        .sort(),
    ).toEqual(['/api/dash/prods', '/api/dash/subs']);
  });
});
