import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Bank statements route', () => {
  it('is an Admin menu item of Administrators, after Collections, that opens the screen', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({
      ...emptyDashboardRoutes(),
      'GET /api/bank-statements/entries': () => jsonResponse({ count: 0, models: [] }),
    });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items.slice(items.indexOf('Collections'), items.indexOf('Collections') + 2)).toEqual([
      'Collections',
      'Bank statements',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Bank statements' }));
    expect(await screen.findByRole('heading', { name: 'Bank statements', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/bank-statements');
    expect(await screen.findByText(/Nothing to review/)).toBeInTheDocument();
  });

  it('is neither offered to nor opened for a User', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user, router } = renderApp('/bank-statements');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    await screen.findByRole('menuitem', { name: 'Products' });
    expect(screen.queryByRole('menuitem', { name: 'Bank statements' })).not.toBeInTheDocument();
  });
});
