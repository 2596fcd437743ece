import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Annual Receipts route', () => {
  it('is an Admin menu item of Administrators that opens the screen', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({ ...emptyDashboardRoutes(), 'GET /api/donations/annual-runs': () => jsonResponse([]) });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Annual Receipts' }));
    expect(await screen.findByRole('heading', { name: 'Annual Receipts' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/annual-receipts');
  });

  it('is neither offered to nor opened for a User', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user, router } = renderApp('/annual-receipts');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await screen.findByRole('menuitem', { name: 'Products' });
    expect(screen.queryByRole('menuitem', { name: 'Annual Receipts' })).not.toBeInTheDocument();
  });
});
