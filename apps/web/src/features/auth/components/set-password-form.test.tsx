import { PASSWORD_RULE_MESSAGES } from '@back-office/contract/auth';
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
      'POST /auth/password-reset/confirm': () =>
        problemResponse(400, 'auth.invalid_password_token', {
          errors: [{ path: 'token', message: 'This link is not valid any more. Ask for a new one.' }],
        }),
    });
    const { user } = renderWithProviders(<SetPasswordForm token="used-token" />);
    await user.type(screen.getByLabelText('New Password'), 'a-good-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'a-good-new-password');
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    expect(await screen.findByText(/This link is not valid any more/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reset Password' })).toHaveAttribute('href', '/password-reset');
  });

  it.each([
    ['a common password', 'password123', PASSWORD_RULE_MESSAGES.common],
    ['the email address', 'zoe.martin@example.org', PASSWORD_RULE_MESSAGES.email],
  ])('shows the server refusing %s under the field and keeps the form', async (_case, password, message) => {
    const requests = mockFetch({
      'POST /auth/password-reset/confirm': () =>
        problemResponse(400, 'validation.password_rejected', {
          detail: message,
          errors: [{ path: 'newPassword', message }],
        }),
    });
    const { user } = renderWithProviders(<SetPasswordForm token="tok-1" />);
    await user.type(screen.getByLabelText('New Password'), password);
    await user.type(screen.getByLabelText('Confirm Password'), password);
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveAccessibleDescription(message);
    expect(screen.getByRole('button', { name: 'Save Password' })).toBeInTheDocument();
    expect(screen.queryByText(/This link is not valid any more/)).not.toBeInTheDocument();
    expect(requests).toHaveLength(1);
  });

  it('without a token, says the link is not valid', () => {
    mockFetch({});
    renderWithProviders(<SetPasswordForm token={null} />);
    expect(screen.getByText(/This link is not valid any more/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });
});
