import type { User } from '@back-office/contract/users';
import { Avatar, Button, Center, Group, Loader, Paper, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FadingRow } from '../../../components/fading-row.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteUser, useForgetDeletedUser } from '../api/delete-user.ts';
import { useUsers } from '../api/get-users.ts';

export const NO_USERS_MESSAGE = 'No users exist!';

type UsersListProps = {
  /** The signed-in user, whose own row has no Remove button (part 1 §6). */
  currentUserId: number | null;
  onView: (user: User) => void;
};

/**
 * The users list (part 1 §2 Users, §4 Row delete and lists): picture, full name, email in brackets,
 * role, View and Remove (two-step). "No users exist!" only once loaded and empty.
 */
export function UsersList({ currentUserId, onView }: UsersListProps) {
  const users = useUsers();

  useEffect(() => {
    if (users.isError) notifyError('getting the users');
  }, [users.isError]);

  if (users.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading users" />
      </Center>
    );
  }
  if (users.isError) return null;
  if (users.data.length === 0) return <EmptyState message={NO_USERS_MESSAGE} />;

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label="Users">
          <Table.Tbody>
            {users.data.map((user) => (
              <UserRow key={user.id} user={user} canRemove={user.id !== currentUserId} onView={onView} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

type UserRowProps = {
  user: User;
  canRemove: boolean;
  onView: (user: User) => void;
};

function UserRow({ user, canRemove, onView }: UserRowProps) {
  const deleteUser = useDeleteUser();
  const forgetDeletedUser = useForgetDeletedUser();
  const [deleted, setDeleted] = useState(false);

  const handleDelete = async (): Promise<boolean> => {
    try {
      await deleteUser.mutateAsync(user.id);
    } catch {
      notifyError('deleting a user');
      return false;
    }
    notifySuccess(`User '${user.fullName}' was deleted successfully!`);
    setDeleted(true);
    return true;
  };

  return (
    <FadingRow removed={deleted} onRemoved={() => void forgetDeletedUser(user.id)}>
      <Table.Td w={56}>
        <Avatar src={user.picture} name={user.fullName} color="initials" alt={user.fullName} />
      </Table.Td>
      <Table.Td>
        <Text fw={500}>{user.fullName}</Text>
      </Table.Td>
      <Table.Td>
        <Text c="dimmed">({user.email})</Text>
      </Table.Td>
      <Table.Td w={140}>{user.role}</Table.Td>
      <Table.Td w={300}>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => onView(user)}>
            View
          </Button>
          {canRemove ? <ConfirmDelete onConfirm={handleDelete} /> : null}
        </Group>
      </Table.Td>
    </FadingRow>
  );
}
