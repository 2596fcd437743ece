import type { ReferenceItem } from '@back-office/contract/reference-lists';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import type { ReferenceListConfig } from '../reference-list-configs.ts';
import { ReferenceItemFormModal } from './reference-item-form-modal.tsx';
import { ReferenceItemsList } from './reference-items-list.tsx';

/** The dialog keeps its item while it fades out, so its title does not flip on close. */
type ModalState = { opened: boolean; item: ReferenceItem | null };

/**
 * The one screen of the six reference lists (part 1 §2 Reference-data lists): heading, the Add New X
 * button, the list and its dialog, worded by `list`.
 */
export function ReferenceListScreen({ list }: { list: ReferenceListConfig }) {
  const [modal, setModal] = useState<ModalState>({ opened: false, item: null });

  return (
    <>
      <PageHeader
        title={list.heading}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setModal({ opened: true, item: null })}
          >
            {list.addButton}
          </Button>
        }
      />
      <ReferenceItemsList list={list} onEdit={(item) => setModal({ opened: true, item })} />
      <ReferenceItemFormModal
        list={list}
        opened={modal.opened}
        item={modal.item}
        onClose={() => setModal((current) => ({ ...current, opened: false }))}
      />
    </>
  );
}
