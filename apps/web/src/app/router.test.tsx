import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ID_TOKEN_KEY } from '../lib/session.ts';
import { emptyDashboardRoutes } from '../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch, problemResponse } from '../testing/fetch-mock.ts';
import { renderApp } from '../testing/render.tsx';
import { idTokenExpiringIn, signIn } from '../testing/session.ts';

describe('route guard', () => {
  it('sends a visitor without a session from a protected screen to the login screen', async () => {
    mockFetch(emptyDashboardRoutes());
    const { router } = renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a visitor with an expired token to login and forgets the stale session', async () => {
    signIn({ expiresInSeconds: -10 });
    mockFetch(emptyDashboardRoutes());
    const { router } = renderApp('/products');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('id_token')).toBeNull();
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('redirects the empty path to home for a signed-in user', async () => {
    signIn();
    mockFetch(emptyDashboardRoutes());
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
  });

  it('checks expiry again on each navigation', async () => {
    signIn({ expiresInSeconds: 3600 });
    mockFetch(emptyDashboardRoutes());
    const { router, user } = renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    // The token runs out while the user is on the screen.
    localStorage.setItem(ID_TOKEN_KEY, idTokenExpiringIn(-1));
    await user.click(screen.getByRole('link', { name: 'Subscribers' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('lets an Administrator open Users', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({ 'GET /api/users': () => jsonResponse([]) });
    renderApp('/users');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add New User' })).toBeInTheDocument();
  });

  it('sends a User away from Users to /unauthorized, which shows the home screen', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { router } = renderApp('/users');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/unauthorized');
  });

  it('shows the Users and Settings menu items to Administrators only', async () => {
    signIn({ role: 'User' });
    mockFetch(emptyDashboardRoutes());
    const { user } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Admin' }));
    expect(await screen.findByRole('menuitem', { name: 'Products' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Tags' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Users' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('logs out from the user menu: session gone, back to login', async () => {
    signIn({ role: 'Administrator', fullName: 'Ada Admin' });
    const requests = mockFetch({
      ...emptyDashboardRoutes(),
      'POST /auth/logout': () => new Response(null, { status: 204 }),
    });
    const { router, user } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await user.click(screen.getByRole('button', { name: 'Ada Admin' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('id_token')).toBeNull();
    const logouts = requests.filter((r) => r.path === '/auth/logout');
    expect(logouts.map((r) => r.method)).toEqual(['POST']);
    expect(logouts[0]?.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('goes to login when the server refuses the token (401) on a data call', async () => {
    signIn({ role: 'Administrator' });
    mockFetch({ 'GET /api/users': () => problemResponse(401, 'auth.token_invalid') });
    const { router } = renderApp('/users');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('id_token')).toBeNull();
  });

  it('goes to /home after a successful login', async () => {
    const idToken = idTokenExpiringIn(3600);
    mockFetch({
      ...emptyDashboardRoutes(),
      'POST /auth/login': () =>
        jsonResponse({ id_token: idToken, access_token: 'a', token_type: 'Bearer', expires_in: 3600 }),
      'GET /auth/userinfo': () => jsonResponse({ sub: '1', email: 'admin@example.org', name: 'Ada Admin' }),
      'GET /api/users/1': () =>
        jsonResponse({
          id: 1,
          fullName: 'Ada Admin',
          name: 'admin@example.org',
          email: 'admin@example.org',
          role: 'Administrator',
          lastLogin: null,
          picture: null,
        }),
    });
    const { router, user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'admin@example.org');
    await user.type(screen.getByLabelText('Password'), 'admin-password-1');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
    expect(screen.getByRole('button', { name: 'Ada Admin' })).toBeInTheDocument();
  });

  it('leaves the shell when the user logs out in another tab', async () => {
    signIn();
    mockFetch(emptyDashboardRoutes());
    const { router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Dashboard' });
    act(() => {
      localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: ID_TOKEN_KEY }));
    });
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });
});
