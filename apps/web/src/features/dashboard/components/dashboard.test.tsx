import { focusManager, useMutation } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { DASHBOARD_REFRESH_MS } from '../api/get-low-stock-products.ts';
import { Dashboard } from './dashboard.tsx';

const NO_OVERDUE = { count: 0, amounts: [] };

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
      'GET /api/dash/overdue': () => jsonResponse(NO_OVERDUE),
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
      'GET /api/dash/overdue': () => jsonResponse(NO_OVERDUE),
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
      'GET /api/dash/overdue': () => jsonResponse(NO_OVERDUE),
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
      'GET /api/dash/overdue': () => problemResponse(403, 'auth.forbidden'),
    });
    renderWithProviders(<Dashboard />);
    expect(await screen.findByText(DASHBOARD_ERROR)).toBeInTheDocument();
    expect(screen.getAllByText(DASHBOARD_ERROR)).toHaveLength(1);
  });

  it('reloads the widgets every 30 seconds and stops once the screen is left', async () => {
    vi.useFakeTimers({
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
      shouldAdvanceTime: true,
    });
    signIn();
    const requests = mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
      'GET /api/dash/overdue': () => jsonResponse(NO_OVERDUE),
    });
    const { unmount } = renderWithProviders(<Dashboard />);
    await screen.findByText('No products currently low in stock.');
    expect(requests).toHaveLength(3);

    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    await vi.waitFor(() => expect(requests).toHaveLength(6));
    expect(
      requests
        .slice(3)
        .map((request) => request.path)
        .sort(),
    ).toEqual(['/api/dash/overdue', '/api/dash/prods', '/api/dash/subs']);

    unmount();
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS * 2));
    expect(requests).toHaveLength(6);
  });

  it('reloads the widgets when the window regains focus, even within 30 seconds', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
      'GET /api/dash/overdue': () => jsonResponse(NO_OVERDUE),
    });
    renderWithProviders(<Dashboard />);
    await screen.findByText('No products currently low in stock.');
    expect(requests).toHaveLength(3);
    try {
      act(() => focusManager.setFocused(false));
      act(() => focusManager.setFocused(true));
      await vi.waitFor(() => expect(requests).toHaveLength(6));
    } finally {
      focusManager.setFocused(undefined);
    }
  });

  it('reloads the widgets after a change made in the same tab', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
      'GET /api/dash/overdue': () => jsonResponse(NO_OVERDUE),
    });
    const { user } = renderWithProviders(
      <>
        <Dashboard />
        <ChangeSomething />
      </>,
    );
    await screen.findByText('No products currently low in stock.');
    expect(requests).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Change' }));
    await vi.waitFor(() => expect(requests).toHaveLength(6));
    expect(
      requests
        .slice(3)
        .map((request) => request.path)
        .sort(),
    ).toEqual(['/api/dash/overdue', '/api/dash/prods', '/api/dash/subs']);
  });

  it('shows the overdue invoices, their amounts per currency the French way, linking to the sales searching them', async () => {
    signIn();
    mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
      'GET /api/dash/overdue': () =>
        jsonResponse({
          count: 3,
          amounts: [
            { currencySymbol: '€', amount: 1234.5 },
            { currencySymbol: 'CHF', amount: 29.5 },
          ],
        }),
    });
    renderWithProviders(<Dashboard />);
    const card = screen.getByRole('region', { name: 'Overdue invoices' });
    expect(await within(card).findByLabelText('Number of overdue invoices')).toHaveTextContent('3');
    const amounts = within(card)
      .getAllByRole('listitem')
      .map((item) => item.textContent?.replace(/\s/g, ' '));
    expect(amounts).toEqual(['1 234,50 €', '29,50 CHF']);
    expect(within(card).getByRole('link', { name: 'See the overdue invoices' })).toHaveAttribute(
      'href',
      '/sales?paymentStatus=overdue',
    );
  });

  it('says when no invoice is overdue', async () => {
    signIn();
    mockFetch({
      'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
      'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
      'GET /api/dash/overdue': () => jsonResponse(NO_OVERDUE),
    });
    renderWithProviders(<Dashboard />);
    expect(await screen.findByText('No invoice is overdue.')).toBeInTheDocument();
  });
});
