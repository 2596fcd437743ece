import type { User } from '@back-office/contract/users';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emptyResponse, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { UsersList } from './users-list.tsx';

const admin: User = {
  id: 1,
  fullName: 'Ada Admin',
  name: 'admin@example.org',
  email: 'admin@example.org',
  role: 'Administrator',
  lastLogin: null,
  picture: null,
};
const ann: User = {
  ...admin,
  id: 7,
  fullName: 'Ann Smith',
  name: 'ann@example.org',
  email: 'ann@example.org',
  role: 'User',
};

function rowOf(text: string): HTMLElement {
  const row = screen.getByText(text).closest('tr');
  if (!row) throw new Error(`No row holds ${text}`);
  return row;
}

describe('UsersList', () => {
  it('shows each user with initials, email in brackets, role, View, and Remove except on the own row', async () => {
    signIn({ id: 1 });
    mockFetch({ 'GET /api/users': () => jsonResponse([admin, ann]) });
    renderWithProviders(<UsersList currentUserId={1} onView={vi.fn()} />);
    expect(await screen.findByText('Ann Smith')).toBeInTheDocument();
    const annRow = rowOf('Ann Smith');
    expect(within(annRow).getByText('(ann@example.org)')).toBeInTheDocument();
    expect(within(annRow).getByText('User')).toBeInTheDocument();
    expect(within(annRow).getByText('AS')).toBeInTheDocument();
    expect(within(annRow).getByRole('button', { name: 'View' })).toBeInTheDocument();
    expect(within(annRow).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
    const ownRow = rowOf('Ada Admin');
    expect(within(ownRow).getByRole('button', { name: 'View' })).toBeInTheDocument();
    expect(within(ownRow).queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
  });

  it('says No users exist! only once the empty list has loaded', async () => {
    signIn();
    mockFetch({ 'GET /api/users': () => jsonResponse([]) });
    renderWithProviders(<UsersList currentUserId={1} onView={vi.fn()} />);
    expect(screen.queryByText('No users exist!')).not.toBeInTheDocument();
    expect(await screen.findByText('No users exist!')).toBeInTheDocument();
  });

  it('shows the error toast when the list cannot be loaded', async () => {
    signIn();
    const requests = mockFetch({ 'GET /api/users': () => problemResponse(500, 'internal') });
    renderWithProviders(<UsersList currentUserId={1} onView={vi.fn()} />);
    // A server error is retried once (about a second later) before it is reported.
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the users. Please try again or contact your system administrator.',
        {},
        { timeout: 4000 },
      ),
    ).toBeInTheDocument();
    expect(requests).toHaveLength(2);
    expect(screen.queryByText('No users exist!')).not.toBeInTheDocument();
  });

  it('removes in two steps: Cancel goes back, CONFIRM DELETE deletes and drops the row', async () => {
    signIn({ id: 1 });
    let users = [admin, ann];
    const requests = mockFetch({
      'GET /api/users': () => jsonResponse(users),
      'DELETE /api/users/7': () => {
        users = [admin];
        return emptyResponse(204);
      },
    });
    const { user } = renderWithProviders(<UsersList currentUserId={1} onView={vi.fn()} />);
    await screen.findByText('Ann Smith');

    await user.click(within(rowOf('Ann Smith')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('Ann Smith')).getByRole('button', { name: 'Cancel' }));
    expect(within(rowOf('Ann Smith')).getByRole('button', { name: 'Remove' })).toBeInTheDocument();

    await user.click(within(rowOf('Ann Smith')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('Ann Smith')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(await screen.findByText("User 'Ann Smith' was deleted successfully!")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Ann Smith')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('keeps the row and says so when the delete fails', async () => {
    signIn({ id: 1 });
    mockFetch({
      'GET /api/users': () => jsonResponse([admin, ann]),
      'DELETE /api/users/7': () => problemResponse(500, 'internal'),
    });
    const { user } = renderWithProviders(<UsersList currentUserId={1} onView={vi.fn()} />);
    await screen.findByText('Ann Smith');
    await user.click(within(rowOf('Ann Smith')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('Ann Smith')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem deleting a user. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(within(rowOf('Ann Smith')).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });
});
