import type { CollectionDetail, CollectionFileVersion } from '@back-office/contract/collections';
import { Alert, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { frenchDay } from '../../../lib/french-date.ts';
import { debitCountText, FILE_VERSION_OPTIONS, formatEuros } from '../collection-format.ts';

type DownloadFileModalProps = {
  /** The draft whose file is asked for; null closes the dialog. */
  collection: CollectionDetail | null;
  /** True while the file is being written and downloaded: the dialog then stays. */
  busy: boolean;
  /** Downloads the file in the version chosen. */
  onDownload: (version: CollectionFileVersion) => void;
  onClose: () => void;
};

/**
 * The warning before a draft's first download (docs/decisions/029: the first download is the export):
 * the file is written and stored, the collection locked (no line can be removed any more), and each
 * debtor emailed the amount and the date. The pain.008 version is chosen here, `pain.008.001.08` by
 * default, `pain.008.001.02` for banks that still require it; later downloads give the same file.
 */
export function DownloadFileModal({ collection, busy, onDownload, onClose }: DownloadFileModalProps) {
  const [version, setVersion] = useState<CollectionFileVersion>('pain.008.001.08');
  return (
    <FormModal opened={collection !== null} title="Download the file" busy={busy} onClose={onClose}>
      {collection ? (
        <Stack gap="md">
          <Alert color="orange" variant="light" title="The collection will be locked">
            <Text size="sm">
              The file for the bank holds {debitCountText(collection.count)} ({formatEuros(collection.total)})
              due on {frenchDay(collection.dueDate)}. Once downloaded, the collection is locked: no line can
              be removed any more, and each debtor is emailed the amount and the date of the debit.
            </Text>
          </Alert>
          <NativeSelect
            label="File version"
            description="Later downloads give the same file, in this version."
            data={FILE_VERSION_OPTIONS}
            value={version}
            onChange={(event) => setVersion(event.currentTarget.value as CollectionFileVersion)}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button color="orange" onClick={() => onDownload(version)} loading={busy}>
              Lock and download
            </Button>
          </Group>
        </Stack>
      ) : null}
    </FormModal>
  );
}
