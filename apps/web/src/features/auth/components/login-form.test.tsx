import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getIdToken, getSessionUser } from '../../../lib/session.ts';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { idTokenExpiringIn } from '../../../testing/session.ts';
import { LoginForm } from './login-form.tsx';

const adminUser = {
  id: 1,
  fullName: 'Ada Admin',
  name: 'admin@example.org',
  email: 'admin@example.org',
  role: 'Administrator',
  lastLogin: null,
  picture: null,
};

describe('LoginForm', () => {
  it('shows both required messages after an empty submit, and sends nothing', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    expect(screen.queryByText('Valid email is required')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Valid email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('rejects a malformed email but accepts the password', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    await user.type(screen.getByLabelText('Email'), 'not an email');
    await user.type(screen.getByLabelText('Password'), 'long-enough-password');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Valid email is required')).toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });

  it('shows the failure alert when the credentials are refused', async () => {
    mockFetch({ 'POST /auth/login': () => problemResponse(401, 'auth.invalid_credentials') });
    const onSuccess = vi.fn();
    const { user } = renderWithProviders(<LoginForm onSuccess={onSuccess} />);
    await user.type(screen.getByLabelText('Email'), 'admin@example.org');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(
      await screen.findByText('Ooops! Try a different username or password and login again.'),
    ).toBeInTheDocument();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(getIdToken()).toBeNull();
  });

  it('says to wait when login attempts are rate limited', async () => {
    mockFetch({ 'POST /auth/login': () => problemResponse(429, 'auth.rate_limited') });
    const { user } = renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    await user.type(screen.getByLabelText('Email'), 'admin@example.org');
    await user.type(screen.getByLabelText('Password'), 'whatever-password');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(/Too many login attempts/)).toBeInTheDocument();
    expect(screen.queryByText(/Ooops!/)).not.toBeInTheDocument();
  });

  it('logs in: tokens, user info, then the user record, and stores the session', async () => {
    const idToken = idTokenExpiringIn(3600);
    const requests = mockFetch({
      'POST /auth/login': () =>
        jsonResponse({ id_token: idToken, access_token: 'access-1', token_type: 'Bearer', expires_in: 3600 }),
      'GET /auth/userinfo': () => jsonResponse({ sub: '1', email: 'admin@example.org', name: 'Ada Admin' }),
      'GET /api/users/1': () => jsonResponse(adminUser),
    });
    const onSuccess = vi.fn();
    const { user } = renderWithProviders(<LoginForm onSuccess={onSuccess} />);
    await user.type(screen.getByLabelText('Email'), ' admin@example.org ');
    await user.type(screen.getByLabelText('Password'), 'admin-password-1');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    await vi.waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /auth/login',
      'GET /auth/userinfo',
      'GET /api/users/1',
    ]);
    expect(requests[0]?.body).toEqual({ email: 'admin@example.org', password: 'admin-password-1' });
    expect(requests[1]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(requests[2]?.headers.get('Authorization')).toBe(`Bearer ${idToken}`);
    expect(localStorage.getItem('id_token')).toBe(idToken);
    expect(localStorage.getItem('access_token')).toBe('access-1');
    expect(getSessionUser()).toEqual({
      id: 1,
      role: 'Administrator',
      email: 'admin@example.org',
      fullName: 'Ada Admin',
    });
  });
});
