import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { SetPasswordForm } from './set-password-form.tsx';

describe('SetPasswordForm', () => {
  it('shows the required messages after an empty submit', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(<SetPasswordForm token="tok-1" />);
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    expect(await screen.findByText('Please enter new password')).toBeInTheDocument();
    expect(screen.getByText('Please enter password confirmation')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('says when the passwords differ, and when the new one is too short', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<SetPasswordForm token="tok-1" />);
    await user.type(screen.getByLabelText('New Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'different');
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    expect(await screen.findByText('Passwords do not match.')).toBeInTheDocument();
    expect(screen.getByText('The password must have at least 10 characters.')).toBeInTheDocument();
  });

  it('saves the password with the token and links to the login screen', async () => {
    const requests = mockFetch({ 'POST /auth/password-reset/confirm': () => emptyResponse(204) });
    const { user } = renderWithProviders(<SetPasswordForm token="tok-1" />);
    await user.type(screen.getByLabelText('New Password'), 'a-good-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'a-good-new-password');
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    expect(await screen.findByText(/Your password has been saved/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the login screen' })).toHaveAttribute('href', '/login');
    expect(requests[0]?.body).toEqual({ token: 'tok-1', newPassword: 'a-good-new-password' });
  });

  it('explains a bad, used or expired link and links back to Reset Password', async () => {
    mockFetch({
      'POST /auth/password-reset/confirm': () => problemResponse(400, 'auth.reset_token_invalid'),
    });
    const { user } = renderWithProviders(<SetPasswordForm token="used-token" />);
    await user.type(screen.getByLabelText('New Password'), 'a-good-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'a-good-new-password');
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    expect(await screen.findByText(/This link is not valid any more/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reset Password' })).toHaveAttribute('href', '/password-reset');
  });

  it('shows the server message about the password itself under the field', async () => {
    mockFetch({
      'POST /auth/password-reset/confirm': () =>
        problemResponse(400, 'validation', {
          errors: [{ path: 'newPassword', message: 'The password is too common.' }],
        }),
    });
    const { user } = renderWithProviders(<SetPasswordForm token="tok-1" />);
    await user.type(screen.getByLabelText('New Password'), 'password123');
    await user.type(screen.getByLabelText('Confirm Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    expect(await screen.findByText('The password is too common.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Password' })).toBeInTheDocument();
  });

  it('without a token, says the link is not valid', () => {
    mockFetch({});
    renderWithProviders(<SetPasswordForm token={null} />);
    expect(screen.getByText(/This link is not valid any more/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });
});
