import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../lib/query-client.ts';
import { emptyDashboardRoutes } from '../testing/dashboard-routes.ts';
import { mockFetch } from '../testing/fetch-mock.ts';
import { renderApp } from '../testing/render.tsx';
import { signIn } from '../testing/session.ts';
import { SESSION_CHECK_INTERVAL_MS } from './use-session-expiry-watch.ts';

describe('session expiry check', () => {
  it('runs every 10 seconds and, once the token has expired, logs out and shows the login screen', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    signIn({ expiresInSeconds: 15 });
    mockFetch(emptyDashboardRoutes());
    queryClient.setQueryData(['users'], []);
    const { router } = renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();

    // 10 s later the token still has 5 s to live: nothing happens.
    act(() => {
      vi.advanceTimersByTime(SESSION_CHECK_INTERVAL_MS);
    });
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(localStorage.getItem('id_token')).not.toBeNull();

    // 20 s: expired. Session and cache are cleared and the login screen shows.
    act(() => {
      vi.advanceTimersByTime(SESSION_CHECK_INTERVAL_MS);
    });
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('id_token')).toBeNull();
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(queryClient.getQueryData(['users'])).toBeUndefined();
  });
});
