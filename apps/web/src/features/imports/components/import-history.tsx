import type { ImportSummary } from '@back-office/contract/imports';
import { Alert, Badge, Button, Group, Loader, Modal, Table, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { formatFrenchDateTime, formatNumber } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useImports } from '../api/get-imports.ts';
import { useUndoImport } from '../api/undo-import.ts';
import {
  countText,
  IMPORT_KIND_LABELS,
  IMPORT_RECORD_NOUNS,
  IMPORT_STATUS_LABELS,
} from '../import-labels.ts';

type ImportHistoryProps = {
  /** The import open above the history, if any (it is not offered again). */
  currentId: number | null;
  /** Opens an import above: an uploaded or checked one to go on with it, another to see its progress or outcome. */
  onOpen: (id: number) => void;
};

/** A count once the import was committed, otherwise a dash. */
function committedCount(item: ImportSummary, count: number): string {
  return item.committedAt ? formatNumber(count) : '–';
}

/**
 * The past imports (`GET /api/imports`, newest first): file, kind, date, who, status and what each
 * created, merged and skipped. An uploaded or checked one can be resumed, any other opened; a committed one can be
 * undone after a confirmation (`POST /api/imports/{id}/undo`); when the server refuses (409, e.g.
 * subscribers changed since), its sentence is shown above the table.
 */
export function ImportHistory({ currentId, onOpen }: ImportHistoryProps) {
  const imports = useImports();
  const undo = useUndoImport();
  const [confirming, setConfirming] = useState<ImportSummary | null>(null);
  const [refusal, setRefusal] = useState<{ fileName: string; detail: string } | null>(null);

  useEffect(() => {
    if (imports.isError) notifyError('getting the imports');
  }, [imports.isError]);

  const handleUndo = async () => {
    if (!confirming) return;
    const item = confirming;
    setRefusal(null);
    try {
      await undo.mutateAsync(item.id);
      notifySuccess(`The import of '${item.fileName}' was undone.`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.detail) {
        setRefusal({ fileName: item.fileName, detail: error.detail });
      } else {
        notifyError('undoing the import', error instanceof ApiError ? error.detail : undefined);
      }
    }
    setConfirming(null);
  };

  const items = imports.data ?? [];

  return (
    <>
      {refusal ? (
        <Alert
          color="red"
          variant="light"
          title={`'${refusal.fileName}' was not undone`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setRefusal(null)}
          mb="md"
        >
          <Text size="sm">{refusal.detail}</Text>
        </Alert>
      ) : null}
      {imports.isPending ? (
        <Loader aria-label="Loading the imports" />
      ) : items.length === 0 ? (
        <EmptyState message="No imports yet." />
      ) : (
        <Table.ScrollContainer minWidth={860}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label="Past imports">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Created</Table.Th>
                <Table.Th ta="right">Merged</Table.Th>
                <Table.Th ta="right">Skipped</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => {
                const status = IMPORT_STATUS_LABELS[item.status];
                const resumable = item.status === 'uploaded' || item.status === 'checked';
                return (
                  <Table.Tr key={item.id}>
                    <Table.Td miw={180} maw={280}>
                      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {item.fileName}
                      </Text>
                    </Table.Td>
                    <Table.Td>{IMPORT_KIND_LABELS[item.kind]}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {formatFrenchDateTime(item.createdAt)}
                    </Table.Td>
                    <Table.Td>{item.createdBy}</Table.Td>
                    <Table.Td miw={120}>
                      {/* A coloured dot beside dark text: light badges fall short of the AA contrast ratio. */}
                      <Badge color={status.color} variant="dot" style={{ overflow: 'visible' }}>
                        {status.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{committedCount(item, item.created)}</Table.Td>
                    <Table.Td ta="right">{committedCount(item, item.merged)}</Table.Td>
                    <Table.Td ta="right">{committedCount(item, item.skipped)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {item.id === currentId ? null : (
                          <Button
                            size="xs"
                            variant="light"
                            onClick={() => onOpen(item.id)}
                            aria-label={`${resumable ? 'Resume' : 'Open'} ${item.fileName}`}
                          >
                            {resumable ? 'Resume' : 'Open'}
                          </Button>
                        )}
                        {item.status === 'committed' ? (
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            onClick={() => setConfirming(item)}
                            aria-label={`Undo ${item.fileName}`}
                          >
                            Undo
                          </Button>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Undo this import?"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Text size="sm" mb="md">
          {confirming
            ? `What '${confirming.fileName}' wrote is taken back: ${countText(confirming.created, IMPORT_RECORD_NOUNS[confirming.kind])} created (removed)${confirming.merged > 0 ? `, ${countText(confirming.merged, IMPORT_RECORD_NOUNS[confirming.kind])} merged (their earlier values put back)` : ''}.`
            : ''}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(null)} disabled={undo.isPending}>
            Keep it
          </Button>
          <Button color="red" onClick={handleUndo} loading={undo.isPending}>
            Undo import
          </Button>
        </Group>
      </Modal>
    </>
  );
}
