import type { SubscriberMerge } from '@back-office/contract/duplicates';
import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-error.ts';
import { formatNumber } from '../../../lib/format.ts';
import { problemMessage, TOAST_AUTO_CLOSE_MS } from '../../../lib/notify.ts';
import { refreshAfterMerge } from '../api/merge-subscribers.ts';
import { undoMerge } from '../api/undo-merge.ts';

function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}

/** "2 donations, 1 sale and 4 history entries": what moved to the kept record (the counts above zero). */
export function movedText(moved: SubscriberMerge['moved']): string {
  const parts = [
    [moved.donations, 'donation', 'donations'],
    [moved.sales, 'sale', 'sales'],
    [moved.receipts, 'receipt', 'receipts'],
    [moved.history, 'history entry', 'history entries'],
    [moved.tags, 'tag', 'tags'],
  ] as const;
  const texts = parts.filter(([count]) => count > 0).map(([count, one, many]) => countText(count, one, many));
  if (texts.length === 0) return 'nothing else';
  return texts.length === 1 ? (texts[0] ?? '') : `${texts.slice(0, -1).join(', ')} and ${texts.at(-1)}`;
}

type MergedNotificationOptions = {
  merge: SubscriberMerge;
  keepName: string;
  mergeName: string;
  queryClient: QueryClient;
  /** Called once the merge was undone (e.g. to show both records again). */
  onUndone: () => void;
};

/**
 * The success toast of a merge: what moved, and an Undo button (`POST /api/subscribers/merge/{mergeId}/undo`).
 * It stays until closed, so that Undo can be reached calmly with the keyboard; the undo's outcome
 * replaces it (the server's reason when it refuses, e.g. the kept record changed since).
 */
export function notifyMerged({
  merge,
  keepName,
  mergeName,
  queryClient,
  onUndone,
}: MergedNotificationOptions) {
  const id = `merge-${merge.id}`;
  const message = `${mergeName} was merged into ${keepName}: ${movedText(merge.moved)} moved.`;
  const show = (undoing: boolean) => ({
    id,
    title: 'Yeah!',
    color: 'green',
    autoClose: false as const,
    message: (
      <Stack gap="xs">
        <Text size="sm" c="var(--mantine-color-text)">
          {message}
        </Text>
        <Group justify="flex-end">
          <Button size="xs" variant="default" loading={undoing} onClick={handleUndo}>
            Undo
          </Button>
        </Group>
      </Stack>
    ),
  });

  async function handleUndo() {
    notifications.update(show(true));
    try {
      await undoMerge(merge.mergeId);
    } catch (error) {
      notifications.update({
        id,
        title: 'Oh Oh!',
        color: 'red',
        autoClose: false,
        message: problemMessage(
          'undoing the merge',
          error instanceof ApiError && error.status < 500 ? error.detail : undefined,
        ),
      });
      return;
    }
    notifications.update({
      id,
      title: 'Yeah!',
      color: 'green',
      autoClose: TOAST_AUTO_CLOSE_MS,
      message: `The merge was undone: ${keepName} and ${mergeName} are back as they were.`,
    });
    await refreshAfterMerge(queryClient);
    onUndone();
  }

  notifications.show(show(false));
}
