import { PASSWORD_RULE_MESSAGES } from '@back-office/contract/auth';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { ChangePasswordForm } from './change-password-form.tsx';

describe('ChangePasswordForm', () => {
  it('asks for the new password after an empty submit', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(<ChangePasswordForm userId={4} />);
    expect(screen.queryByText('Please enter new password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Please enter new password')).toBeInTheDocument();
    expect(screen.getByText('Please enter password confirmation')).toBeInTheDocument();
    expect(screen.getByText('Please enter your current password')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('asks for the confirmation once that field was touched and left empty', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<ChangePasswordForm userId={4} />);
    await user.click(screen.getByLabelText('Confirm Password'));
    expect(screen.queryByText('Please enter password confirmation')).not.toBeInTheDocument();
    await user.tab();
    expect(await screen.findByText('Please enter password confirmation')).toBeInTheDocument();
    expect(screen.queryByText('Please enter new password')).not.toBeInTheDocument();
  });

  it('says the passwords do not match after submit', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(<ChangePasswordForm userId={4} />);
    await user.type(screen.getByLabelText('New Password'), 'a-good-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'another-password');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Passwords do not match.')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('updates the password, shows the success toast and resets the form', async () => {
    signIn({ id: 4 });
    const requests = mockFetch({
      'PATCH /api/users/password/4': () =>
        jsonResponse({
          id: 4,
          fullName: 'Ada Admin',
          name: 'admin@example.org',
          email: 'admin@example.org',
          role: 'Administrator',
          lastLogin: null,
          picture: null,
        }),
    });
    const { user } = renderWithProviders(<ChangePasswordForm userId={4} />);
    await user.type(screen.getByLabelText('Current Password'), 'the-old-password');
    await user.type(screen.getByLabelText('New Password'), 'a-good-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'a-good-new-password');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Your password was updated successfully. Good job!')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm Password')).toHaveValue('');
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
    expect(requests[0]?.body).toEqual({
      currentPassword: 'the-old-password',
      newPassword: 'a-good-new-password',
      confirmPassword: 'a-good-new-password',
    });
  });

  it.each([
    ['a common password', 'iloveyou123', PASSWORD_RULE_MESSAGES.common],
    ['the email address', 'admin@example.org', PASSWORD_RULE_MESSAGES.email],
  ])("shows the server's message under the field when it refuses %s", async (_case, password, message) => {
    signIn({ id: 4 });
    mockFetch({
      'PATCH /api/users/password/4': () =>
        problemResponse(400, 'validation.password_rejected', {
          detail: message,
          errors: [{ path: 'newPassword', message }],
        }),
    });
    const { user } = renderWithProviders(<ChangePasswordForm userId={4} />);
    await user.type(screen.getByLabelText('Current Password'), 'the-old-password');
    await user.type(screen.getByLabelText('New Password'), password);
    await user.type(screen.getByLabelText('Confirm Password'), password);
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveAccessibleDescription(message);
    // A refused password is not a failure of the server: no failure toast.
    expect(screen.queryByText(/Houston/)).not.toBeInTheDocument();
  });

  it('shows the failure toast when the update fails', async () => {
    signIn({ id: 4 });
    mockFetch({ 'PATCH /api/users/password/4': () => problemResponse(500, 'internal') });
    const { user } = renderWithProviders(<ChangePasswordForm userId={4} />);
    await user.type(screen.getByLabelText('Current Password'), 'the-old-password');
    await user.type(screen.getByLabelText('New Password'), 'a-good-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'a-good-new-password');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem updating your password. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('says so under Current Password when the server finds it wrong (part 1 §8)', async () => {
    signIn({ id: 4 });
    mockFetch({
      'PATCH /api/users/password/4': () =>
        problemResponse(400, 'users.wrong_current_password', {
          errors: [{ path: 'currentPassword', message: 'Your current password is wrong.' }],
        }),
    });
    const { user } = renderWithProviders(<ChangePasswordForm userId={4} />);
    await user.type(screen.getByLabelText('Current Password'), 'not-my-password');
    await user.type(screen.getByLabelText('New Password'), 'a-good-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'a-good-new-password');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Your current password is wrong.')).toBeInTheDocument();
    expect(screen.getByLabelText('Current Password')).toHaveAccessibleDescription(
      'Your current password is wrong.',
    );
    expect(screen.queryByText(/Houston/)).not.toBeInTheDocument();
  });
});
