import type { User } from '@back-office/contract/users';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { UserFormModal } from './user-form-modal.tsx';

const ann: User = {
  id: 7,
  fullName: 'Ann Smith',
  name: 'ann@example.org',
  email: 'ann@example.org',
  role: 'User',
  lastLogin: null,
  picture: null,
};

type Interactions = ReturnType<typeof renderWithProviders>['user'];

async function chooseRole(user: Interactions, role: 'Administrator' | 'User') {
  await user.click(screen.getByRole('combobox', { name: 'Role' }));
  await user.click(await screen.findByRole('option', { name: role }));
}

describe('UserFormModal', () => {
  it('after an invalid submit shows the incomplete-form text and each required message', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Add New User' });
    expect(within(dialog).getByPlaceholderText("Select the user's role.")).toBeInTheDocument();
    expect(screen.queryByText('Please complete all the information!')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Please complete all the information!')).toBeInTheDocument();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Role is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('shows Name is required once the name field is touched and left too short', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={vi.fn()} />);
    await user.type(screen.getByLabelText('Full name'), 'Al');
    await user.tab();
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.queryByText('Please complete all the information!')).not.toBeInTheDocument();
  });

  it('offers the two roles', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={vi.fn()} />);
    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Administrator', 'User']);
  });

  it('keeps the dialog open with a busy Save button until the server answers, then closes', async () => {
    signIn();
    const answer = deferred<Response>();
    const requests = mockFetch({ 'POST /api/users': () => answer.promise });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={onClose} />);
    await user.type(screen.getByLabelText('Full name'), 'Ann Smith');
    await user.type(screen.getByLabelText('Email'), 'ann@example.org');
    await chooseRole(user, 'User');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toEqual({ fullName: 'Ann Smith', email: 'ann@example.org', role: 'User' });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('data-loading');
    expect(screen.getByRole('dialog', { name: 'Add New User' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    answer.resolve(jsonResponse(ann, 201));
    expect(await screen.findByText("User 'Ann Smith' was created successfully!")).toBeInTheDocument();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('stays open and shows a taken email under the Email field', async () => {
    signIn();
    mockFetch({
      'POST /api/users': () =>
        problemResponse(409, 'users.email_taken', {
          detail: 'A user with this email already exists.',
          errors: [{ path: 'email', message: 'This email is already used by another user.' }],
        }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={onClose} />);
    await user.type(screen.getByLabelText('Full name'), 'Ann Smith');
    await user.type(screen.getByLabelText('Email'), 'ann@example.org');
    await chooseRole(user, 'User');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('This email is already used by another user.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Add New User' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('uses the problem detail for a 409 without field errors', async () => {
    signIn();
    mockFetch({
      'POST /api/users': () => problemResponse(409, 'users.email_taken', { detail: 'Email already used.' }),
    });
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={vi.fn()} />);
    await user.type(screen.getByLabelText('Full name'), 'Ann Smith');
    await user.type(screen.getByLabelText('Email'), 'ann@example.org');
    await chooseRole(user, 'Administrator');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Email already used.')).toBeInTheDocument();
  });

  it('says under Role when the last Administrator would lose the role', async () => {
    signIn();
    mockFetch({
      'PATCH /api/users/7': () =>
        problemResponse(409, 'users.last_administrator', {
          detail: 'You cannot demote the last Administrator.',
        }),
    });
    const { user } = renderWithProviders(
      <UserFormModal opened user={{ ...ann, role: 'Administrator' }} onClose={vi.fn()} />,
    );
    await chooseRole(user, 'User');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The last Administrator must keep the Administrator role.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeInTheDocument();
  });

  it('stays open with an error toast when the server fails', async () => {
    signIn();
    mockFetch({ 'POST /api/users': () => problemResponse(500, 'internal', { detail: 'db down' }) });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={onClose} />);
    await user.type(screen.getByLabelText('Full name'), 'Ann Smith');
    await user.type(screen.getByLabelText('Email'), 'ann@example.org');
    await chooseRole(user, 'User');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem creating a user. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('db down')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveValue('Ann Smith');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('edits an existing user with PATCH including the id', async () => {
    signIn();
    const requests = mockFetch({
      'PATCH /api/users/7': () => jsonResponse({ ...ann, fullName: 'Ann Jones', role: 'Administrator' }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<UserFormModal opened user={ann} onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveValue('Ann Smith');
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.org');
    expect(screen.getByRole('combobox', { name: 'Role' })).toHaveValue('User');

    await user.clear(screen.getByLabelText('Full name'));
    await user.type(screen.getByLabelText('Full name'), 'Ann Jones');
    await chooseRole(user, 'Administrator');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText("User 'Ann Jones' was updated successfully!")).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({
      id: 7,
      fullName: 'Ann Jones',
      email: 'ann@example.org',
      role: 'Administrator',
    });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('does not close when clicking outside (static backdrop) but closes on Cancel', async () => {
    mockFetch({});
    const onClose = vi.fn();
    const { user } = renderWithProviders(<UserFormModal opened user={null} onClose={onClose} />);
    await user.click(document.body);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});
