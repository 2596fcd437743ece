import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordSavedFiles } from '../../../testing/exports.ts';
import { mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { ExportProductsButton } from './export-products-button.tsx';

const CSV = '\uFEFFid,name\n1,Agenda été\n';

/** The names the browser was asked to save files under. */
let savedNames: string[] = [];

beforeEach(() => {
  savedNames = recordSavedFiles();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ExportProductsButton', () => {
  it('downloads the CSV with the bearer token and saves it under the name the server gives', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/products/export': () =>
        new Response(CSV, {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': `attachment; filename="products-export-2025-03-07.csv"; filename*=UTF-8''products-export-2025-03-07.csv`,
          },
        }),
    });
    const { user } = renderWithProviders(<ExportProductsButton />);
    await user.click(screen.getByRole('button', { name: 'Export Products' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['products-export-2025-03-07.csv']));
    expect(requests[0]?.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('names the file products-export-{year}-{month}-{day}.csv when the server gives no name', async () => {
    signIn();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 0, 9, 10, 0, 0));
    mockFetch({
      'GET /api/products/export': () => new Response(CSV, { headers: { 'Content-Type': 'text/csv' } }),
    });
    const { user } = renderWithProviders(<ExportProductsButton />);
    await user.click(screen.getByRole('button', { name: 'Export Products' }));
    await vi.waitFor(() => expect(savedNames).toEqual(['products-export-2025-01-09.csv']));
  });

  it('says so in a toast when the export fails', async () => {
    signIn();
    mockFetch({ 'GET /api/products/export': () => problemResponse(500, 'internal') });
    const { user } = renderWithProviders(<ExportProductsButton />);
    await user.click(screen.getByRole('button', { name: 'Export Products' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem exporting the products. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(savedNames).toEqual([]);
  });

  it('asks to wait for an export to finish when too many are under way (429)', async () => {
    signIn();
    mockFetch({
      'GET /api/products/export': () =>
        problemResponse(429, 'exports.too_many', { detail: 'You already have 2 exports under way.' }),
    });
    const { user } = renderWithProviders(<ExportProductsButton />);
    await user.click(screen.getByRole('button', { name: 'Export Products' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem exporting the products. Too many exports are under way: wait for one to finish. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(savedNames).toEqual([]);
  });

  it('exports in the CSV format chosen in its menu, remembered for the signed-in user only', async () => {
    signIn({ id: 7 });
    const respond = () => new Response(CSV, { headers: { 'Content-Type': 'text/csv' } });
    mockFetch({ 'GET /api/products/export': respond });
    const requestedUrls = () => vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    const { user, unmount } = renderWithProviders(<ExportProductsButton />);
    await user.click(screen.getByRole('button', { name: 'Export Products' }));
    await vi.waitFor(() => expect(requestedUrls()).toEqual(['/api/products/export?dialect=rfc4180']));

    await user.click(screen.getByRole('button', { name: 'CSV format' }));
    const excel = await screen.findByRole('menuitem', { name: /Excel \(France\)/ });
    expect(excel).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('menuitem', { name: /Standard CSV/ })).toHaveAttribute('aria-current', 'true');
    await user.click(excel);
    expect(excel).toHaveAttribute('aria-current', 'true');
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Export Products' }));
    await vi.waitFor(() => expect(requestedUrls()[1]).toBe('/api/products/export?dialect=excel-fr'));
    unmount();

    // Remembered for user 7 in this browser, not for another user.
    renderWithProviders(<ExportProductsButton />);
    expect(localStorage.getItem('exports.csv-dialect.7')).toBe('excel-fr');
    signIn({ id: 8 });
    const other = renderWithProviders(<ExportProductsButton />);
    await other.user.click(screen.getAllByRole('button', { name: 'Export Products' })[1] as HTMLElement);
    await vi.waitFor(() => expect(requestedUrls()[2]).toBe('/api/products/export?dialect=rfc4180'));
  });
});
