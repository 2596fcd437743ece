import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';

describe('Receipts route', () => {
  it('is a main menu item, after Donations, that opens the screen for a User', async () => {
    signIn({ role: 'User' });
    mockFetch({
      ...emptyDashboardRoutes(),
      'GET /api/receipts': () => jsonResponse({ count: 0, models: [] }),
    });
    const { user, router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0] as HTMLElement;
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links.slice(links.indexOf('Donations'), links.indexOf('Donations') + 3)).toEqual([
      'Donations',
      'Receipts',
      'Sales',
    ]);
    await user.click(within(nav).getByRole('link', { name: 'Receipts' }));
    expect(await screen.findByRole('heading', { name: 'Receipts', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/receipts');
    expect(await screen.findByText('No receipts have been issued yet.')).toBeInTheDocument();
  });
});
