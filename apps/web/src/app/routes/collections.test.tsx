import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Collections route', () => {
  it('is an Admin menu item of Administrators, after Exchange rates, that opens the screen', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({
      ...emptyDashboardRoutes(),
      'GET /api/collections': () => jsonResponse([]),
    });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items.slice(items.indexOf('Exchange rates'), items.indexOf('Exchange rates') + 2)).toEqual([
      'Exchange rates',
      'Collections',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Collections' }));
    expect(await screen.findByRole('heading', { name: 'Collections', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/collections');
    expect(await screen.findByText('No collection has been built yet.')).toBeInTheDocument();
  });

  it('is neither offered to nor opened for a User', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user, router } = renderApp('/collections/3');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await screen.findByRole('menuitem', { name: 'Products' });
    expect(screen.queryByRole('menuitem', { name: 'Collections' })).not.toBeInTheDocument();
  });
});
