import type { ReferenceItem } from '@back-office/contract/reference-lists';
import { Badge, Button, Center, Group, Loader, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FadingRow } from '../../../components/fading-row.tsx';
import { useReferenceList } from '../../../entities/reference-lists/index.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteReferenceItem, useForgetDeletedReferenceItem } from '../api/delete-reference-item.ts';
import type { ReferenceListConfig } from '../reference-list-configs.ts';

/** Part 1 §2 Reference-data lists: the text of a loaded empty list. */
export const NO_ITEMS_MESSAGE = 'No items exist!';

/** What a row shows: the name, or for currencies `name (symbol)` (part 1 §2 Reference-data lists). */
export function referenceItemLabel(list: ReferenceListConfig, item: ReferenceItem): string {
  return list.withSymbol && item.symbol ? `${item.name} (${item.symbol})` : item.name;
}

type ReferenceItemsListProps = {
  list: ReferenceListConfig;
  onEdit: (item: ReferenceItem) => void;
};

/**
 * One reference list (part 1 §2 Reference-data lists, §4 Row delete): a row per item in the server's
 * order with Edit and Remove (two-step), and the ISO code of countries and currencies that have one.
 * "No items exist!" only once loaded and empty. A refused delete
 * says why in the error toast (e.g. how many subscribers still use the country; part 1 §8).
 */
export function ReferenceItemsList({ list, onEdit }: ReferenceItemsListProps) {
  const items = useReferenceList(list.key);

  useEffect(() => {
    if (items.isError) notifyError(list.errors.load);
  }, [items.isError, list.errors.load]);

  if (items.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={`Loading ${list.heading.toLowerCase()}`} />
      </Center>
    );
  }
  if (items.isError) return null;
  if (items.data.length === 0) return <EmptyState message={NO_ITEMS_MESSAGE} />;

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label={list.heading}>
          <Table.Tbody>
            {items.data.map((item) => (
              <ReferenceItemRow key={item.id} list={list} item={item} onEdit={onEdit} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

type ReferenceItemRowProps = {
  list: ReferenceListConfig;
  item: ReferenceItem;
  onEdit: (item: ReferenceItem) => void;
};

function ReferenceItemRow({ list, item, onEdit }: ReferenceItemRowProps) {
  const deleteItem = useDeleteReferenceItem(list);
  const forgetDeletedItem = useForgetDeletedReferenceItem(list);
  const [deleted, setDeleted] = useState(false);

  const handleDelete = async (): Promise<boolean> => {
    try {
      await deleteItem.mutateAsync(item.id);
    } catch (error) {
      const inUse = error instanceof ApiError && error.code === 'reference_lists.in_use';
      notifyError(list.errors.delete, inUse ? error.detail : undefined);
      return false;
    }
    notifySuccess(`Item '${item.name}' was deleted successfully!`);
    setDeleted(true);
    return true;
  };

  return (
    <FadingRow removed={deleted} onRemoved={() => void forgetDeletedItem(item.id)}>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text fw={500}>{referenceItemLabel(list, item)}</Text>
          {list.isoCode && item.isoCode ? (
            <Badge variant="default" size="sm" radius="sm" style={{ flexShrink: 0 }}>
              <VisuallyHidden>ISO code </VisuallyHidden>
              {item.isoCode}
            </Badge>
          ) : null}
          {list.withDirectDebit && item.directDebit ? (
            <Badge variant="light" size="sm">
              Direct debit
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td w={300}>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => onEdit(item)}>
            Edit
          </Button>
          <ConfirmDelete onConfirm={handleDelete} />
        </Group>
      </Table.Td>
    </FadingRow>
  );
}
