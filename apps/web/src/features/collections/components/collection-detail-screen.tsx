import type {
  CollectionDetail,
  CollectionFileVersion,
  CollectionLine,
} from '@back-office/contract/collections';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconCash, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatFrenchDateTime } from '../../../lib/format.ts';
import { frenchDay } from '../../../lib/french-date.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDownloadCollectionFile } from '../api/download-collection-file.ts';
import { useCollection } from '../api/get-collection.ts';
import { useRemoveCollectionLine } from '../api/remove-collection-line.ts';
import { useSettleCollection } from '../api/settle-collection.ts';
import {
  COLLECTION_STATUS_BADGES,
  collectionName,
  debitCountText,
  formatEuros,
  refusalReason,
} from '../collection-format.ts';
import { CollectionLinesTable } from './collection-lines-table.tsx';
import { DownloadFileModal } from './download-file-modal.tsx';

/**
 * One collection (not in the spec; docs/decisions/029), Administrators only: its due date and status,
 * number of debits and total in euros, file version and when it was exported and settled; Download the
 * file (on a draft, after a warning and the choice of the pain.008 version: the first download locks
 * it and emails each debtor), Settle (on an exported one, after a confirmation: each pending debit
 * becomes a donation); below, its lines, each removable while a draft. Toasts say what was done, or
 * the server's reason for a refusal.
 */
export function CollectionDetailScreen({ id }: { id: number }) {
  const collection = useCollection(id);
  return (
    <>
      <Anchor component={Link} to={paths.collections.href()} size="sm">
        <Group gap={4} component="span" wrap="nowrap">
          <IconArrowLeft size={14} aria-hidden />
          Collections
        </Group>
      </Anchor>
      {collection.isPending ? (
        <Loader size="sm" mt="md" aria-label="Loading the collection..." />
      ) : collection.isError ? (
        <Alert color="red" mt="md">
          {collection.error instanceof ApiError && collection.error.status === 404
            ? 'No collection has this id.'
            : 'The collection could not be loaded.'}
        </Alert>
      ) : (
        <CollectionView collection={collection.data} />
      )}
    </>
  );
}

function CollectionView({ collection }: { collection: CollectionDetail }) {
  const download = useDownloadCollectionFile();
  const settle = useSettleCollection();
  const removeLine = useRemoveCollectionLine();
  const [confirmingDownload, setConfirmingDownload] = useState(false);
  const [confirmingSettle, setConfirmingSettle] = useState(false);
  const badge = COLLECTION_STATUS_BADGES[collection.status];
  const draft = collection.status === 'draft';
  const title = `Collection of ${frenchDay(collection.dueDate)}`;
  const pending = collection.lines.filter((line) => line.status === 'pending').length;

  const handleDownload = (version: CollectionFileVersion) => {
    download.mutate(
      { id: collection.id, dueDate: collection.dueDate, version },
      {
        onSuccess: (filename) => {
          setConfirmingDownload(false);
          notifySuccess(
            draft
              ? `The file ${filename} was downloaded; ${collectionName(collection.dueDate)} is locked and the debtors are notified.`
              : `The file ${filename} was downloaded.`,
          );
        },
        onError: (error) => {
          setConfirmingDownload(false);
          notifyError('downloading the file', refusalReason(error));
        },
      },
    );
  };

  const handleSettle = () => {
    settle.mutate(collection.id, {
      onSuccess: (settled) => {
        setConfirmingSettle(false);
        notifySuccess(
          `The collection of ${frenchDay(settled.dueDate)} is settled: ${debitCountText(pending)} recorded as donations.`,
        );
      },
      onError: (error) => {
        setConfirmingSettle(false);
        notifyError('settling the collection', refusalReason(error));
      },
    });
  };

  const handleRemove = async (line: CollectionLine): Promise<boolean> => {
    try {
      await removeLine.mutateAsync({ collectionId: collection.id, lineId: line.id });
    } catch (error) {
      notifyError('removing the line', refusalReason(error));
      return false;
    }
    notifySuccess(`The debit of ${line.subscriberName} (${formatEuros(line.amount)}) was removed.`);
    return true;
  };

  return (
    <Stack gap="xl" mt="sm">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={1} size="h2">
            {title}
          </Title>
          <Badge color={badge.color} variant="dot" size="lg" style={{ overflow: 'visible' }}>
            {badge.label}
          </Badge>
        </Group>
        <Group gap="sm" wrap="wrap">
          <Button
            variant={draft ? 'filled' : 'default'}
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={download.isPending && !confirmingDownload}
            disabled={draft && pending === 0}
            onClick={() =>
              draft
                ? setConfirmingDownload(true)
                : handleDownload(collection.fileVersion ?? 'pain.008.001.08')
            }
          >
            Download the file
          </Button>
          {collection.status === 'exported' ? (
            <Button
              leftSection={<IconCash size={16} aria-hidden />}
              onClick={() => setConfirmingSettle(true)}
            >
              Settle
            </Button>
          ) : null}
        </Group>
      </Group>

      <Paper withBorder radius="md" p="md" component="section" aria-label="Summary">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" verticalSpacing="sm">
          <Fact label="Due date" value={frenchDay(collection.dueDate)} />
          <Fact label="Debits" value={debitCountText(collection.count)} />
          <Fact label="Total" value={formatEuros(collection.total)} />
          <Fact label="File" value={collection.fileVersion ?? 'Not exported yet'} />
          {collection.exportedAt ? (
            <Fact label="Exported on" value={formatFrenchDateTime(collection.exportedAt)} />
          ) : null}
          {collection.settledAt ? (
            <Fact label="Settled on" value={formatFrenchDateTime(collection.settledAt)} />
          ) : null}
        </SimpleGrid>
        <Text size="sm" mt="md" c="dimmed">
          {draft
            ? 'A draft: lines can still be removed. Downloading the file locks it and emails each debtor.'
            : collection.status === 'exported'
              ? 'The file is out: settle the collection once the bank has credited the account.'
              : 'Settled: each debit collected is a donation. Returns from the bank are imported on the Collections screen.'}
        </Text>
      </Paper>

      <section aria-labelledby="lines-heading">
        <Title order={2} size="h3" id="lines-heading" mb="md">
          Lines
        </Title>
        {collection.lines.length === 0 ? (
          <EmptyState message="No installment is due on this day." />
        ) : (
          <CollectionLinesTable lines={collection.lines} removable={draft} onRemove={handleRemove} />
        )}
      </section>

      <DownloadFileModal
        collection={confirmingDownload ? collection : null}
        busy={download.isPending}
        onDownload={handleDownload}
        onClose={() => setConfirmingDownload(false)}
      />
      <FormModal
        opened={confirmingSettle}
        title="Settle the collection"
        size="sm"
        busy={settle.isPending}
        onClose={() => setConfirmingSettle(false)}
      >
        <Stack gap="md">
          <Text size="sm">
            Do this once the bank has credited the account: each of the {debitCountText(pending)} pending
            becomes a donation dated {frenchDay(collection.dueDate)}. A collection is settled once only.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmingSettle(false)} disabled={settle.isPending}>
              Cancel
            </Button>
            <Button onClick={handleSettle} loading={settle.isPending} data-autofocus>
              Settle
            </Button>
          </Group>
        </Stack>
      </FormModal>
    </Stack>
  );
}

/** One fact of the summary: a small dimmed label above its value. */
function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}
