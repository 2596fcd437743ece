import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Imports route', () => {
  it('is an Admin menu item of Administrators that opens the screen', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({ ...emptyDashboardRoutes(), 'GET /api/imports': () => jsonResponse([]) });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Imports' }));
    expect(await screen.findByRole('heading', { name: 'Imports', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/imports');
    expect(screen.getByRole('heading', { name: 'New import', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'History', level: 2 })).toBeInTheDocument();
    expect(await screen.findByText('No imports yet.')).toBeInTheDocument();
  });

  it('is neither offered to nor opened for a User', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user, router } = renderApp('/imports');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await screen.findByRole('menuitem', { name: 'Products' });
    expect(screen.queryByRole('menuitem', { name: 'Imports' })).not.toBeInTheDocument();
  });
});
