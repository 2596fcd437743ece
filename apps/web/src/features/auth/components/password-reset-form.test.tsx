import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { PasswordResetForm } from './password-reset-form.tsx';

describe('PasswordResetForm', () => {
  it('requires a valid email after a submit attempt, and sends nothing', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(<PasswordResetForm />);
    expect(screen.queryByText('Valid email is required')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Password Reset Email' }));
    expect(await screen.findByText('Valid email is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'a@b');
    await user.click(screen.getByRole('button', { name: 'Send Password Reset Email' }));
    expect(await screen.findByText('Valid email is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('sends the email, shows the success toast and clears the form', async () => {
    const requests = mockFetch({ 'POST /auth/password-reset': () => emptyResponse(202) });
    const { user } = renderWithProviders(<PasswordResetForm />);
    await user.type(screen.getByLabelText('Email'), 'ann@example.org');
    await user.click(screen.getByRole('button', { name: 'Send Password Reset Email' }));
    expect(await screen.findByText('Please check your email for a password reset link!')).toBeInTheDocument();
    expect(screen.getByText('Yeah!')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(requests[0]?.body).toEqual({ email: 'ann@example.org' });
    expect(requests[0]?.headers.get('Authorization')).toBeNull();
  });

  it('shows the failure toast and keeps the email when the request fails', async () => {
    mockFetch({ 'POST /auth/password-reset': () => problemResponse(500, 'internal') });
    const { user } = renderWithProviders(<PasswordResetForm />);
    await user.type(screen.getByLabelText('Email'), 'ann@example.org');
    await user.click(screen.getByRole('button', { name: 'Send Password Reset Email' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Oh Oh!')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.org');
  });

  it('links back to the login screen', () => {
    mockFetch({});
    renderWithProviders(<PasswordResetForm />);
    expect(screen.getByRole('link', { name: 'Return to login screen' })).toHaveAttribute('href', '/login');
  });
});
