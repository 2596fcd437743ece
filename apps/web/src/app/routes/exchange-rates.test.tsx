import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Exchange rates route', () => {
  it('is an Admin menu item of Administrators, after Duplicates, that opens the screen', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({
      ...emptyDashboardRoutes(),
      'GET /api/exchange-rates': () => jsonResponse({ count: 0, models: [] }),
    });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items.slice(items.indexOf('Duplicates'), items.indexOf('Duplicates') + 2)).toEqual([
      'Duplicates',
      'Exchange rates',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Exchange rates' }));
    expect(await screen.findByRole('heading', { name: 'Exchange rates', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/exchange-rates');
    expect(screen.getByRole('heading', { name: 'Add a rate', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Import from the ECB', level: 2 })).toBeInTheDocument();
    expect(await screen.findByText('No exchange rates match the search criteria.')).toBeInTheDocument();
  });

  it('is neither offered to nor opened for a User', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user, router } = renderApp('/exchange-rates');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await screen.findByRole('menuitem', { name: 'Products' });
    expect(screen.queryByRole('menuitem', { name: 'Exchange rates' })).not.toBeInTheDocument();
  });
});
