import type { User } from '@back-office/contract/users';
import { Button } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header.tsx';
import { useCurrentUser } from '../../entities/current-user/index.ts';
import { UserFormModal } from '../../features/users/components/user-form-modal.tsx';
import { UsersList } from '../../features/users/components/users-list.tsx';

/** The dialog keeps its user while it fades out, so its title does not flip on close. */
type ModalState = { opened: boolean; user: User | null };

/** /users, Administrators only (part 1 §2 Users, §6). */
export function UsersRoute() {
  const currentUser = useCurrentUser();
  const [modal, setModal] = useState<ModalState>({ opened: false, user: null });

  return (
    <>
      <PageHeader
        title="Users"
        actions={
          <Button
            leftSection={<IconUserPlus size={16} aria-hidden />}
            onClick={() => setModal({ opened: true, user: null })}
          >
            Add New User
          </Button>
        }
      />
      <UsersList
        currentUserId={currentUser?.id ?? null}
        onView={(user) => setModal({ opened: true, user })}
      />
      <UserFormModal
        opened={modal.opened}
        user={modal.user}
        onClose={() => setModal((current) => ({ ...current, opened: false }))}
      />
    </>
  );
}
