import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Duplicates route', () => {
  it('is an Admin menu item of Administrators, after Imports, that opens the screen', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({
      ...emptyDashboardRoutes(),
      'GET /api/subscribers/duplicates': () =>
        jsonResponse({ count: 0, models: [], scannedAt: null, scanning: false }),
      'GET /api/subscribers/inactive': () => jsonResponse({ count: 0, years: 3, models: [] }),
    });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items.slice(items.indexOf('Imports'), items.indexOf('Imports') + 2)).toEqual([
      'Imports',
      'Duplicates',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Duplicates' }));
    expect(await screen.findByRole('heading', { name: 'Duplicates', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/duplicates');
    expect(await screen.findByText('No search for duplicates has been run yet.')).toBeInTheDocument();
  });

  it('is neither offered to nor opened for a User, nor is the Merge screen', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user, router } = renderApp('/duplicates/merge?keep=1&merge=2');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await screen.findByRole('menuitem', { name: 'Products' });
    expect(screen.queryByRole('menuitem', { name: 'Duplicates' })).not.toBeInTheDocument();
  });
});
