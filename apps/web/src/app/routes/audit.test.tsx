import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Audit route', () => {
  it('is an Admin menu item of Administrators that opens the screen', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({ ...emptyDashboardRoutes(), 'GET /api/audit': () => jsonResponse({ count: 0, models: [] }) });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Audit' }));
    expect(await screen.findByRole('heading', { name: 'Audit' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/audit');
    expect(await screen.findByText('No changes match the search criteria.')).toBeInTheDocument();
  });

  it('is neither offered to nor opened for a User', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user, router } = renderApp('/audit');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await screen.findByRole('menuitem', { name: 'Products' });
    expect(screen.queryByRole('menuitem', { name: 'Audit' })).not.toBeInTheDocument();
  });
});
